# SPDX-License-Identifier: Apache-2.0
# Rewrites a .cu file for the CPU emulation: kernel<<<grid, block, smem, stream>>>(args)
# becomes emu::launch(dim3(grid), dim3(block), [=] { kernel(args); }), and the dynamic
# shared memory array becomes a static one. Usage: transform.py IN.cu OUT.cpp
import re, sys
src = open(sys.argv[1]).read()
# kernel<<<grid, block, smem, stream>>>(args)  ->  emu::launch(dim3(grid), dim3(block), [&] { kernel(args); })
pat = re.compile(r'([A-Za-z_][\w:]*(?:<[^<>;]*>)?)<<<(.*?)>>>\(')
out = []
i = 0
while True:
    m = pat.search(src, i)
    if not m:
        out.append(src[i:]); break
    out.append(src[i:m.start()])
    name, cfg = m.group(1), m.group(2)
    parts = [p.strip() for p in re.split(r',(?![^()]*\))', cfg)]
    # find matching paren for args
    j = m.end(); depth = 1
    while depth:
        if src[j] == '(': depth += 1
        elif src[j] == ')': depth -= 1
        j += 1
    args = src[m.end():j-1]
    out.append(f'emu::launch(dim3({parts[0]}), dim3({parts[1]}), [=] {{ {name}({args}); }})')
    i = j
s = ''.join(out)
s = s.replace('extern __shared__ float smem[];', 'static float smem[16384];')
# The tensor-core kernel's byte arena (up to the 227 KiB a block may have on sm_90).
s = s.replace('extern __shared__ __align__(128) unsigned char fa_smem[];', 'alignas(128) static unsigned char fa_smem[232448];')
open(sys.argv[2], 'w').write(s)

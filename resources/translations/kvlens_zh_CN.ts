<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>kvlens::ui::AnswerPane</name>
    <message>
        <source>Tint tokens by latency</source>
        <translation>按延迟为 token 着色</translation>
    </message>
    <message>
        <source>Each token&apos;s background shows how long it took to decode, from this run&apos;s fast tokens (10th percentile) to its slow ones (90th). The first token is blue: its time is the TTFT.</source>
        <translation>每个 token 的背景色表示其解码耗时，从本次运行较快的 token（第 10 百分位）到较慢的 token（第 90 百分位）。首个 token 为蓝色：它的时间就是首 token 时间（TTFT）。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Answer — %1</source>
        <translation>回答 — %1</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>reading the report: %1 %</source>
        <translation>正在阅读报告：%1 %</translation>
    </message>
    <message numerus="yes">
        <source>writing: %n token(s)</source>
        <translation>
            <numerusform>正在写：%n 个 token</numerusform>
        </translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>done: reached the max new tokens</source>
        <translation>完成：达到最大新 token 数</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>Choose a task and press Run (Ctrl+Enter): the answer streams in here.</source>
        <translation>选择任务并点击“运行”（Ctrl+Enter）：回答会在这里逐字出现。</translation>
    </message>
    <message>
        <source>⚠ the answer repeats itself (a small model looping): try fewer pages or a larger model</source>
        <translation>⚠ 回答在重复自身（小模型陷入循环）：请减少页数或换用更大的模型</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::ChartPanel</name>
    <message>
        <source>Export chart…</source>
        <translation>导出图表…</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::ChartsBoard</name>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::DocumentPane</name>
    <message>
        <source>Open a report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Open a PDF with Ctrl+O or drop it here. The text stays on this machine.</source>
        <translation>按 Ctrl+O 打开 PDF，或把它拖到这里。文本不会离开本机。</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Open the sample report</source>
        <translation>打开示例报告</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Find in text</source>
        <translation>在文本中查找</translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation>上一处</translation>
    </message>
    <message>
        <source>Next match</source>
        <translation>下一处</translation>
    </message>
    <message>
        <source>to</source>
        <translation>至</translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n 页</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 个字符</translation>
    </message>
    <message>
        <source>no text layer on this page</source>
        <translation>此页没有文本层</translation>
    </message>
    <message>
        <source>Rendering…</source>
        <translation>正在渲染…</translation>
    </message>
    <message>
        <source>counting tokens…</source>
        <translation>正在统计 token…</translation>
    </message>
    <message>
        <source>The prompt and an answer of %1 tokens fit the context of %2 tokens.</source>
        <translation>提示加上 %1 个 token 的回答可以放入 %2 个 token 的上下文。</translation>
    </message>
    <message>
        <source>%1 tokens · fits %2</source>
        <translation>%1 token · 可放入 %2</translation>
    </message>
    <message>
        <source>%1 tokens · exceeds %2</source>
        <translation>%1 token · 超出 %2</translation>
    </message>
    <message>
        <source>no match</source>
        <translation>无匹配</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 处匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Use pages %1–%2 (the most that fit)</source>
        <translation>使用第 %1–%2 页（能放入的最多页数）</translation>
    </message>
    <message>
        <source>The largest page range from page %1 whose text fits the context with room for the answer.</source>
        <translation>从第 %1 页开始、文本能放入上下文并为回答留出空间的最大页范围。</translation>
    </message>
    <message>
        <source>Map-reduce all pages</source>
        <translation>对全部页面做 map-reduce</translation>
    </message>
    <message>
        <source>Summarize each part that fits on its own, then the summaries together; every stage is a run in the history, named by its pages.</source>
        <translation>先分别摘要每个能放入上下文的部分，再把这些摘要合并；每个阶段都是历史中的一次运行，以其页码命名。</translation>
    </message>
    <message>
        <source>The page could not be rendered: %1</source>
        <translation>无法渲染此页：%1</translation>
    </message>
    <message>
        <source>Too long: choose fewer pages, use the suggested range, or map-reduce. The prompt and an answer of %1 tokens need more than the context of %2 tokens.</source>
        <translation>太长：请减少页数、使用建议的页范围，或使用 map-reduce。提示加上 %1 个 token 的回答超出了 %2 个 token 的上下文。</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::EngineWorker</name>
    <message>
        <source>no model file chosen (Settings → Model file)</source>
        <translation>未选择模型文件（设置 → 模型文件）</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::HistoryPane</name>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>Overlay</source>
        <translation>叠加</translation>
    </message>
    <message>
        <source>A second run drawn on the same charts, dashed</source>
        <translation>在同一图表上以虚线绘制的第二次运行</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::KvChart</name>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>tokens held</source>
        <translation>已存 token 数</translation>
    </message>
    <message>
        <source>%1 logical</source>
        <translation>%1 逻辑</translation>
    </message>
    <message>
        <source>%1 at %2 tokens: %3 logical · %4 allocated · %5 reserved</source>
        <translation>%1 在 %2 token 时：逻辑 %3 · 已分配 %4 · 预留 %5</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>Zoom to decode</source>
        <translation>放大解码阶段</translation>
    </message>
    <message>
        <source>Show only the decode steps, where the block staircase is visible</source>
        <translation>只显示解码步骤，可以看清块分配的阶梯</translation>
    </message>
    <message>
        <source>%1 recomputed</source>
        <translation>%1 重新计算</translation>
    </message>
    <message>
        <source>decode step</source>
        <translation>解码步</translation>
    </message>
    <message>
        <source>%1: KV off, no cache kept</source>
        <translation>%1：KV 关闭，不保留缓存</translation>
    </message>
    <message>
        <source>%1: KV off, no cache kept; step %2 recomputed %3 tokens</source>
        <translation>%1：KV 关闭，不保留缓存；第 %2 步重新计算了 %3 个 token</translation>
    </message>
    <message>
        <source>logical</source>
        <translation>逻辑</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>块</translation>
    </message>
    <message>
        <source>reserved</source>
        <translation>预留</translation>
    </message>
    <message>
        <source>KV (MiB)</source>
        <translation>KV (MiB)</translation>
    </message>
    <message>
        <source>recomputed</source>
        <translation>重新计算</translation>
    </message>
    <message>
        <source>KV (KiB)</source>
        <translation>KV (KiB)</translation>
    </message>
    <message>
        <source>%1 server KV</source>
        <translation>%1 服务器 KV</translation>
    </message>
    <message>
        <source>token</source>
        <translation>token</translation>
    </message>
    <message>
        <source>server KV cache in use (%)</source>
        <translation>服务器 KV 缓存占用 (%)</translation>
    </message>
    <message>
        <source>%1: the server does not report its KV cache</source>
        <translation>%1：服务器不报告其 KV 缓存</translation>
    </message>
    <message>
        <source>%1: the server&apos;s whole KV cache, %2% in use (server /metrics)</source>
        <translation>%1：服务器整个 KV 缓存已用 %2%（服务器 /metrics）</translation>
    </message>
    <message>
        <source>%1 = %2 tokens × %3 B</source>
        <translation>%1 = %2 个 token × %3 B</translation>
    </message>
    <message>
        <source>%1 held at %2 tokens</source>
        <translation>%2 个 token 时占用 %1</translation>
    </message>
    <message>
        <source>global layers</source>
        <translation>全局层</translation>
    </message>
    <message>
        <source>%1 at %2 tokens: local %3 (%4 tokens) · global %5 · %6 allocated</source>
        <translation>%1 在 %2 token 时：局部 %3（%4 token）· 全局 %5 · 已分配 %6</translation>
    </message>
    <message>
        <source>%1 %2 = %3 tokens × %4 B</source>
        <translation>%1 %2 = %3 个 token × %4 B</translation>
    </message>
    <message>
        <source>%1 %2 held at %3 tokens</source>
        <translation>%1 在 %3 个 token 时占用 %2</translation>
    </message>
    <message>
        <source>global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>local</source>
        <translation>局部</translation>
    </message>
    <message>
        <source>local layers</source>
        <translation>局部层</translation>
    </message>
    <message>
        <source>convolution state</source>
        <translation>卷积状态</translation>
    </message>
    <message>
        <source>attention layers</source>
        <translation>注意力层</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>convolutions</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>%1 at %2 tokens: convolutions %3 (%4 tokens) · attention %5 · %6 allocated</source>
        <translation>%1 在 %2 token 时：卷积 %3（%4 token）· 注意力 %5 · 已分配 %6</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::LatencyChart</name>
    <message>
        <source>Decode latency per token</source>
        <translation>每 token 解码延迟</translation>
    </message>
    <message>
        <source>generated token</source>
        <translation>生成的 token</translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation>延迟 (ms)</translation>
    </message>
    <message>
        <source>%1 mean</source>
        <translation>%1 均值</translation>
    </message>
    <message>
        <source>%1: %2 tok/s, %3 per token</source>
        <translation>%1：%2 token/秒，每 token %3</translation>
    </message>
    <message>
        <source>lines: mean of %1 tokens</source>
        <translation>折线：%1 个 token 的均值</translation>
    </message>
    <message>
        <source>hidden reasoning</source>
        <translation>隐藏推理</translation>
    </message>
    <message>
        <source>first visible token</source>
        <translation>首个可见 token</translation>
    </message>
    <message>
        <source>%1 hidden tokens: TTFT %2, first visible token %3</source>
        <translation>%1 个隐藏 token：TTFT %2，首个可见 token %3</translation>
    </message>
    <message>
        <source>%1 hidden tokens: TTFT %2, no visible token yet</source>
        <translation>%1 个隐藏 token：TTFT %2，尚无可见 token</translation>
    </message>
    <message>
        <source>mean TPOT %1 = %2 over %3 tokens</source>
        <translation>平均 TPOT %1 = %2 ÷ %3 个 token</translation>
    </message>
    <message>
        <source>accepted drafts</source>
        <translation>已接受的草稿</translation>
    </message>
    <message>
        <source>%1 tokens from accepted drafts (no step of their own)</source>
        <translation>%1 个 token 来自被接受的草稿（没有单独的解码步）</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::LessonPane</name>
    <message>
        <source>kvlens · %1 · %2 · %3</source>
        <translation>kvlens · %1 · %2 · %3</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>%1. %2 (%3)</source>
        <translation>%1. %2（%3）</translation>
    </message>
    <message>
        <source>Report: the open document, else the built-in sample report.</source>
        <translation>报告：已打开的文档，否则为内置示例报告。</translation>
    </message>
    <message>
        <source>Report: %1 (%2 slices)</source>
        <translation>报告：%1（%2 段）</translation>
    </message>
    <message>
        <source>Export the lesson&apos;s slides</source>
        <translation>导出课程幻灯片</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Run step</source>
        <translation>运行此步</translation>
    </message>
    <message>
        <source>Run all</source>
        <translation>全部运行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export slides…</source>
        <translation>导出幻灯片…</translation>
    </message>
    <message>
        <source>Slide</source>
        <translation>幻灯片</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::LessonRunner</name>
    <message>
        <source>step %1 (%2) skipped: %3</source>
        <translation>第 %1 步（%2）已跳过：%3</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>question alone</source>
        <translation>只有问题</translation>
    </message>
    <message>
        <source>question + report</source>
        <translation>问题 + 报告</translation>
    </message>
    <message>
        <source>one-line</source>
        <translation>一句话</translation>
    </message>
    <message>
        <source>detailed</source>
        <translation>详细</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全文</translation>
    </message>
    <message>
        <source>max %1</source>
        <translation>最多 %1</translation>
    </message>
    <message>
        <source>KV on</source>
        <translation>KV 开</translation>
    </message>
    <message>
        <source>KV off</source>
        <translation>KV 关</translation>
    </message>
    <message>
        <source>first question</source>
        <translation>第一个问题</translation>
    </message>
    <message>
        <source>follow-up</source>
        <translation>追问</translation>
    </message>
    <message>
        <source>cold</source>
        <translation>冷启动</translation>
    </message>
    <message>
        <source>same again</source>
        <translation>再发一次</translation>
    </message>
    <message>
        <source>timestamp</source>
        <translation>时间戳</translation>
    </message>
    <message>
        <source>alone</source>
        <translation>单独</translation>
    </message>
    <message>
        <source>at once %1</source>
        <translation>同时 %1</translation>
    </message>
    <message>
        <source>f16</source>
        <translation>f16</translation>
    </message>
    <message>
        <source>q8_0</source>
        <translation>q8_0</translation>
    </message>
    <message>
        <source>whole report</source>
        <translation>整份报告</translation>
    </message>
    <message>
        <source>question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>the run could not start</source>
        <translation>运行无法开始</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>a run gave no figures</source>
        <translation>有一次运行没有给出数据</translation>
    </message>
    <message>
        <source>step %1 %2: %3</source>
        <translation>第 %1 步 %2：%3</translation>
    </message>
    <message>
        <source>one per step</source>
        <translation>每步一个</translation>
    </message>
    <message>
        <source>drafts</source>
        <translation>草稿</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::MainWindow</name>
    <message>
        <source>About kvlens</source>
        <translation>关于 kvlens</translation>
    </message>
    <message>
        <source>&lt;h3&gt;kvlens %1&lt;/h3&gt;&lt;p&gt;A reading assistant that shows its work: the prefill, the first token, every decoded token and the KV cache, live.&lt;/p&gt;&lt;p&gt;Apache License 2.0&lt;/p&gt;</source>
        <translation>&lt;h3&gt;kvlens %1&lt;/h3&gt;&lt;p&gt;一个展示自身工作过程的阅读助手：实时显示预填充、首个 token、每个解码 token 和 KV 缓存。&lt;/p&gt;&lt;p&gt;Apache 许可证 2.0&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 — kvlens</source>
        <translation>%1 — kvlens</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open the &amp;sample report</source>
        <translation>打开示例报告(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Recent files</source>
        <translation>最近的文件(&amp;R)</translation>
    </message>
    <message>
        <source>Export all &amp;charts (PNG and SVG)…</source>
        <translation>导出全部图表（PNG 和 SVG）(&amp;C)…</translation>
    </message>
    <message>
        <source>Export run as CS&amp;V…</source>
        <translation>将运行导出为 CS&amp;V…</translation>
    </message>
    <message>
        <source>Export run as &amp;JSON…</source>
        <translation>将运行导出为 &amp;JSON…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run the task</source>
        <translation>运行任务(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About kvlens</source>
        <translation>关于 kvlens(&amp;A)</translation>
    </message>
    <message>
        <source>Live charts</source>
        <translation>实时图表</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Open a report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Reports (*.pdf *.txt *.md);;PDF (*.pdf);;All files (*)</source>
        <translation>报告 (*.pdf *.txt *.md);;PDF (*.pdf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No sample report</source>
        <translation>没有示例报告</translation>
    </message>
    <message>
        <source>The sample report was not found next to the program.</source>
        <translation>在程序旁边没有找到示例报告。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>%1 is protected. Password:</source>
        <translation>%1 受密码保护。密码：</translation>
    </message>
    <message>
        <source>The report could not be opened</source>
        <translation>无法打开报告</translation>
    </message>
    <message>
        <source>Open a report first.</source>
        <translation>请先打开一份报告。</translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation>未加载模型。</translation>
    </message>
    <message>
        <source>No model: %1</source>
        <translation>没有模型：%1</translation>
    </message>
    <message>
        <source>loading the model…</source>
        <translation>正在加载模型…</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Export all charts to</source>
        <translation>将全部图表导出到</translation>
    </message>
    <message>
        <source>Saved the charts in %1</source>
        <translation>图表已保存到 %1</translation>
    </message>
    <message>
        <source>Export run</source>
        <translation>导出运行</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>&amp;Experiments</source>
        <translation>实验(&amp;E)</translation>
    </message>
    <message>
        <source>The selected pages are too long</source>
        <translation>所选页面太长</translation>
    </message>
    <message>
        <source>%1 (small demo model)</source>
        <translation>%1（小型演示模型）</translation>
    </message>
    <message>
        <source>%1 · %2 · runs on %3</source>
        <translation>%1 · %2 · 运行于 %3</translation>
    </message>
    <message>
        <source>Map-reduce: %1</source>
        <translation>Map-reduce：%1</translation>
    </message>
    <message>
        <source>Map-reduce finished: the last run holds the answer.</source>
        <translation>Map-reduce 完成：最后一次运行给出了答案。</translation>
    </message>
    <message>
        <source>Map-reduce stopped: %1</source>
        <translation>Map-reduce 已停止：%1</translation>
    </message>
    <message>
        <source>Open another &amp;model (GGUF)…</source>
        <translation>打开其他模型 (GGUF)(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Open a model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>wrong password</source>
        <translation>密码错误</translation>
    </message>
    <message>
        <source>Wrong password for %1. Try again:</source>
        <translation>%1 的密码错误。请重试：</translation>
    </message>
    <message>
        <source>Wrong password for %1</source>
        <translation>%1 的密码错误</translation>
    </message>
    <message>
        <source>They need %1 tokens plus %2 for the answer; the context holds %3. Choose fewer pages, run the largest range that fits, or summarize all of them by map-reduce.</source>
        <translation>它们需要 %1 个 token，另加 %2 个用于回答；上下文只能容纳 %3 个。请减少页数、运行能放入的最大页范围，或用 map-reduce 摘要全部页面。</translation>
    </message>
    <message>
        <source>Run the pages that fit</source>
        <translation>运行能放入的页面</translation>
    </message>
    <message>
        <source>Map-reduce all pages</source>
        <translation>对全部页面做 map-reduce</translation>
    </message>
    <message>
        <source>KV cache off</source>
        <translation>关闭 KV 缓存</translation>
    </message>
    <message>
        <source>Without the cache every one of the %1 steps recomputes about %2 tokens: about %3 in all, estimated from run #%4&apos;s prefill speed (%5). Run it on the first %6 tokens instead?</source>
        <translation>没有缓存时，%1 个解码步骤中的每一步都要重新计算约 %2 个 token：按运行 #%4 的预填充速度（%5）估计，总共约需 %3。改为只对前 %6 个 token 运行吗？</translation>
    </message>
    <message>
        <source>First %1 tokens</source>
        <translation>前 %1 个 token</translation>
    </message>
    <message>
        <source>Run it all</source>
        <translation>全部运行</translation>
    </message>
    <message>
        <source>Saved runs skipped</source>
        <translation>已跳过保存的运行</translation>
    </message>
    <message>
        <source>Chat format: %1</source>
        <translation>对话格式：%1</translation>
    </message>
    <message>
        <source>The template&apos;s own system prompt, used only when a chat has none (not sent here): “%1”</source>
        <translation>模板自带的系统提示，仅在对话没有系统提示时使用（此处不会发送）：“%1”</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>%1 · runs on %2</source>
        <translation>%1 · 运行于 %2</translation>
    </message>
    <message>
        <source>&amp;Lesson mode…</source>
        <translation>课程模式(&amp;L)…</translation>
    </message>
    <message>
        <source>Not a model file</source>
        <translation>不是模型文件</translation>
    </message>
    <message>
        <source>No chat template (a base model): the turns as one text to continue</source>
        <translation>没有对话模板（基础模型）：各轮对话合成一段待续写的文本</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::MemoryChart</name>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV used</source>
        <translation>KV 已用</translation>
    </message>
    <message>
        <source>KV free</source>
        <translation>KV 空闲</translation>
    </message>
    <message>
        <source>scratch</source>
        <translation>临时缓冲</translation>
    </message>
    <message>
        <source>%1: weights %2 · KV pool %3 · scratch %4</source>
        <translation>%1：权重 %2 · KV 池 %3 · 临时缓冲 %4</translation>
    </message>
    <message>
        <source>%1 at once</source>
        <translation>同时 %1 个</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source> · on %1: %2 free of %3</source>
        <translation> · 在 %1 上：%3 中空闲 %2</translation>
    </message>
    <message>
        <source>%1: the server does not report its memory</source>
        <translation>%1：服务器不报告其内存</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::ModelPanel</name>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Could not load the model: %1</source>
        <translation>无法加载模型：%1</translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Choose a GGUF file in Settings.</source>
        <translation>请在设置中选择一个 GGUF 文件。</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Runs on</source>
        <translation>运行于</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>%1 query heads, %2 KV heads</source>
        <translation>%1 个查询头，%2 个 KV 头</translation>
    </message>
    <message>
        <source>MQA</source>
        <translation>MQA</translation>
    </message>
    <message>
        <source>GQA</source>
        <translation>GQA</translation>
    </message>
    <message>
        <source>KV %1× smaller</source>
        <translation>KV 缩小 %1 倍</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>注意力头</translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>嵌入维度</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>%1 tokens (trained: %2)</source>
        <translation>%1 token（训练时：%2）</translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 token</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation>%1 M</translation>
    </message>
    <message>
        <source>Experts</source>
        <translation>专家</translation>
    </message>
    <message>
        <source>%1 per layer, %2 per token, %3 rows each</source>
        <translation>每层 %1 个，每个 token 用 %2 个，每个 %3 行</translation>
    </message>
    <message>
        <source>, and a shared expert of %1 rows every token runs</source>
        <translation>，另有每个 token 都经过的共享专家（%1 行）</translation>
    </message>
    <message>
        <source>; chosen by sigmoid plus an expert bias</source>
        <translation>；由 sigmoid 加专家偏置选出</translation>
    </message>
    <message>
        <source>; chosen by the softmax plus an expert bias</source>
        <translation>；由 softmax 加专家偏置选出</translation>
    </message>
    <message>
        <source>; weighted by the softmax of the chosen experts&apos; logits, with biases</source>
        <translation>；权重为所选专家 logit 的 softmax，各专家带偏置</translation>
    </message>
    <message>
        <source>Attention sinks</source>
        <translation>注意力汇（sink）</translation>
    </message>
    <message>
        <source>a learned logit per head joins each softmax, so a head can attend to nothing</source>
        <translation>每个头有一个学得的 logit 加入 softmax，使该头可以不关注任何 token</translation>
    </message>
    <message numerus="yes">
        <source>; the first %n layer(s) dense</source>
        <translation>
            <numerusform>；前 %n 层为稠密层</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 M, %2 M of them per token</source>
        <translation>%1 M，每个 token 用到其中 %2 M</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Tensor types</source>
        <translation>张量类型</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>%1 tokens, %2 chat format</source>
        <translation>%1 个 token，%2 对话格式</translation>
    </message>
    <message>
        <source>KV cache per token</source>
        <translation>每 token KV 缓存</translation>
    </message>
    <message>
        <source>%1 (f16) · %2 (q8_0)</source>
        <translation>%1（f16）· %2（q8_0）</translation>
    </message>
    <message>
        <source>KV pool</source>
        <translation>KV 池</translation>
    </message>
    <message>
        <source>KV bytes per token = %1</source>
        <translation>每 token KV 字节数 = %1</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>%1 (the first of %2 parts)</source>
        <translation>%1（共 %2 个分片中的第一个）</translation>
    </message>
    <message>
        <source>Open another GGUF…</source>
        <translation>打开其他 GGUF…</translation>
    </message>
    <message>
        <source>Load a different model file (File → Open another model)</source>
        <translation>加载另一个模型文件（文件 → 打开其他模型）</translation>
    </message>
    <message>
        <source>This is a small demo model (135 M parameters): it shows every figure live even on a laptop, but its answers are simple and it may repeat itself. Open a larger GGUF for better answers.</source>
        <translation>这是一个小型演示模型（1.35 亿参数）：即使在笔记本电脑上也能实时显示每个指标，但它的回答比较简单，还可能重复。打开更大的 GGUF 模型可获得更好的回答。</translation>
    </message>
    <message>
        <source>&lt;b&gt;What the figures mean&lt;/b&gt; (each measured by the engine between two moments; the four TTFT parts add up to TTFT):&lt;br&gt;&lt;b&gt;tokenize&lt;/b&gt;: arrival → tokenized (chat template and tokenizer; vLLM does this in its API server)&lt;br&gt;&lt;b&gt;queue&lt;/b&gt;: tokenized → scheduled (vLLM&apos;s request_queue_time)&lt;br&gt;&lt;b&gt;prefill&lt;/b&gt;: scheduled → the last prompt chunk computed&lt;br&gt;&lt;b&gt;first sample&lt;/b&gt;: prefill done → first token sampled (vLLM&apos;s prefill time is prefill + first sample)&lt;br&gt;&lt;b&gt;TTFT&lt;/b&gt;: arrival → first token (vLLM&apos;s time_to_first_token; what an OpenAI-compatible client measures to the first streamed token, less the network)&lt;br&gt;&lt;b&gt;ITL&lt;/b&gt;: the gap between two tokens (the latency chart); &lt;b&gt;TPOT&lt;/b&gt;: decode time ÷ (tokens − 1)&lt;br&gt;&lt;b&gt;prompt / cached / generated tokens&lt;/b&gt;: OpenAI&apos;s usage.prompt_tokens, prompt_tokens_details.cached_tokens and completion_tokens</source>
        <translation>&lt;b&gt;各项指标的含义&lt;/b&gt;（每项都由引擎在两个时刻之间测得；TTFT 的四个部分相加等于 TTFT）：&lt;br&gt;&lt;b&gt;分词&lt;/b&gt;：到达 → 分词完成（对话模板和分词器；vLLM 在其 API 服务器中完成这一步）&lt;br&gt;&lt;b&gt;排队&lt;/b&gt;：分词完成 → 被调度（vLLM 的 request_queue_time）&lt;br&gt;&lt;b&gt;预填充&lt;/b&gt;：被调度 → 最后一个提示块计算完成&lt;br&gt;&lt;b&gt;首次采样&lt;/b&gt;：预填充完成 → 采样出首个 token（vLLM 的预填充时间 = 预填充 + 首次采样）&lt;br&gt;&lt;b&gt;TTFT&lt;/b&gt;：到达 → 首个 token（vLLM 的 time_to_first_token；即兼容 OpenAI 的客户端测得的到首个流式 token 的时间，不含网络）&lt;br&gt;&lt;b&gt;ITL&lt;/b&gt;：相邻两个 token 的间隔（延迟图）；&lt;b&gt;TPOT&lt;/b&gt;：解码时间 ÷（token 数 − 1）&lt;br&gt;&lt;b&gt;提示 / 缓存 / 生成 token 数&lt;/b&gt;：OpenAI 的 usage.prompt_tokens、prompt_tokens_details.cached_tokens 和 completion_tokens</translation>
    </message>
    <message>
        <source>(the template always puts the knowledge-cutoff lines in front)</source>
        <translation>（模板总会在前面加上知识截止日期的几行）</translation>
    </message>
    <message>
        <source>(no system role in this format: it opens the first user turn)</source>
        <translation>（此格式没有系统角色：它放在第一个用户轮次的开头）</translation>
    </message>
    <message>
        <source>System prompt sent</source>
        <translation>发送的系统提示</translation>
    </message>
    <message>
        <source>Template&apos;s default</source>
        <translation>模板默认</translation>
    </message>
    <message>
        <source>none (the template adds no system prompt of its own)</source>
        <translation>无（模板不会自行添加系统提示）</translation>
    </message>
    <message>
        <source>“%1” — inserted when a chat brings no system prompt; kvlens always sends its own, so the model does not see it</source>
        <translation>“%1”——仅在对话没有系统提示时插入；kvlens 总会发送自己的系统提示，所以模型看不到它</translation>
    </message>
    <message>
        <source>the server does not say</source>
        <translation>服务器未说明</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>结构</translation>
    </message>
    <message>
        <source>not reported by the server: layers, heads, KV bytes per token and the KV pool are the server&apos;s own</source>
        <translation>服务器未报告：层数、注意力头、每 token KV 字节数和 KV 池都由服务器自己掌握</translation>
    </message>
    <message>
        <source>KV layer groups</source>
        <translation>KV 层组</translation>
    </message>
    <message>
        <source>%1 local layers: %2 per token, capped at %3 tokens (%4 at most) · %5 global layers: %6 per token, every token</source>
        <translation>%1 个局部层：每 token %2，上限 %3 个 token（最多 %4）· %5 个全局层：每 token %6，保留每个 token</translation>
    </message>
    <message>
        <source>%1 tokens; no chat template in the file (a base model): runs send the report and the task as one text to continue</source>
        <translation>%1 个 token；文件中没有对话模板（基础模型）：运行时把报告和任务作为一段待续写的文本发送</translation>
    </message>
    <message>
        <source>Hidden reasoning</source>
        <translation>隐藏推理</translation>
    </message>
    <message>
        <source>may think in &lt;think&gt;…&lt;/think&gt; first (the tags are tokens of its vocabulary)</source>
        <translation>可能先在 &lt;think&gt;…&lt;/think&gt; 中思考（这两个标签是其词表中的 token）</translation>
    </message>
    <message>
        <source>may think in &lt;think&gt;…&lt;/think&gt; first (its chat template writes the tags)</source>
        <translation>可能先在 &lt;think&gt;…&lt;/think&gt; 中思考（其对话模板会写出这两个标签）</translation>
    </message>
    <message>
        <source>reasons in its analysis channel first, then answers in its final channel (Harmony format)</source>
        <translation>先在 analysis 通道中推理，再在 final 通道中作答（Harmony 格式）</translation>
    </message>
    <message>
        <source>(a base model: the first paragraph of the text it continues)</source>
        <translation>（基础模型：它是待续写文本的第一段）</translation>
    </message>
    <message>
        <source>base %1</source>
        <translation>基数 %1</translation>
    </message>
    <message>
        <source>, Llama 3.1 frequency factors (rope_freqs.weight)</source>
        <translation>，Llama 3.1 频率因子（rope_freqs.weight）</translation>
    </message>
    <message>
        <source>, linear scaling ×%1</source>
        <translation>，线性缩放 ×%1</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE 位置编码</translation>
    </message>
    <message>
        <source>, LongRoPE long factors (this context of %1 tokens passes the original %2)</source>
        <translation>，LongRoPE 长因子（当前上下文 %1 个 token，超过原始的 %2）</translation>
    </message>
    <message>
        <source>, LongRoPE short factors (this context of %1 tokens fits the original %2)</source>
        <translation>，LongRoPE 短因子（当前上下文 %1 个 token，不超过原始的 %2）</translation>
    </message>
    <message>
        <source>, attention factor ×%1</source>
        <translation>，注意力因子 ×%1</translation>
    </message>
    <message>
        <source>(no system role in this format: it opens the last user turn)</source>
        <translation>（此格式没有系统角色：它放在最后一个用户轮次的开头）</translation>
    </message>
    <message>
        <source>nothing: this model&apos;s chat template leaves the system prompt out</source>
        <translation>无：此模型的聊天模板不包含系统提示</translation>
    </message>
    <message>
        <source>attention scores at ±%1 before the softmax</source>
        <translation>注意力分数在 softmax 之前截断于 ±%1</translation>
    </message>
    <message>
        <source>logits at ±%1</source>
        <translation>logits 截断于 ±%1</translation>
    </message>
    <message>
        <source>Soft-capping</source>
        <translation>软截断</translation>
    </message>
    <message>
        <source>, in no layer (the file turns it off)</source>
        <translation>，所有层都不使用（文件关闭了 RoPE）</translation>
    </message>
    <message>
        <source>, not in %1 of %2 layers (NoPE, no positions: layers %3)</source>
        <translation>，%2 层中有 %1 层不使用（NoPE，无位置信息：第 %3 层）</translation>
    </message>
    <message>
        <source>embeddings ×%1</source>
        <translation>嵌入 ×%1</translation>
    </message>
    <message>
        <source>attention scores ×%1 (instead of 1/√%2 = %3)</source>
        <translation>注意力分数 ×%1（而非 1/√%2 = %3）</translation>
    </message>
    <message>
        <source>block outputs ×%1 before the residual add</source>
        <translation>各块输出在残差相加前 ×%1</translation>
    </message>
    <message>
        <source>logits ÷%1</source>
        <translation>logits ÷%1</translation>
    </message>
    <message>
        <source>Scales</source>
        <translation>缩放系数</translation>
    </message>
    <message>
        <source>before and after each block</source>
        <translation>每个块之前和之后</translation>
    </message>
    <message>
        <source>before each block</source>
        <translation>每个块之前</translation>
    </message>
    <message>
        <source>after each block</source>
        <translation>每个块之后</translation>
    </message>
    <message>
        <source>, Q and K per head</source>
        <translation>，Q 和 K 按头归一化</translation>
    </message>
    <message>
        <source>, Q and K per head after RoPE</source>
        <translation>，Q 和 K 在 RoPE 之后按头归一化</translation>
    </message>
    <message>
        <source>, Q and K over whole rows</source>
        <translation>，Q 和 K 按整行归一化</translation>
    </message>
    <message>
        <source>one per layer, read by attention and the feed-forward block side by side</source>
        <translation>每层一个，注意力与前馈块并行读取同一归一化输出</translation>
    </message>
    <message>
        <source>LayerNorms</source>
        <translation>LayerNorm 归一化</translation>
    </message>
    <message>
        <source>logits ×%1</source>
        <translation>logits ×%1</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>learned: position p&apos;s row of a table is added to token p&apos;s embedding (no RoPE); %1 rows, so no context is longer</source>
        <translation>学习得到：表中第 p 行加到第 p 个 token 的嵌入上（无 RoPE）；共 %1 行，因此上下文不能更长</translation>
    </message>
    <message>
        <source>, each with a bias</source>
        <translation>，均带偏置</translation>
    </message>
    <message>
        <source>one per block, the blocks side by side from the same input</source>
        <translation>每块一个，两块并行读取同一输入</translation>
    </message>
    <message>
        <source>, over the first %1 of each head&apos;s %2 dimensions</source>
        <translation>，仅作用于每个头 %2 维中的前 %1 维</translation>
    </message>
    <message>
        <source>%1 (f16) · q8_0 not possible: its blocks of 32 would straddle heads of %2</source>
        <translation>%1（f16）· 无法使用 q8_0：32 个一块会跨越 %2 维的两个头</translation>
    </message>
    <message>
        <source>RMS norms</source>
        <translation>RMS 归一化</translation>
    </message>
    <message>
        <source>one holding today&apos;s date, inserted when a chat brings no system prompt; kvlens always sends its own, so the model does not see it</source>
        <translation>一个含有当天日期的系统提示词，在对话没有系统提示词时插入；kvlens 总是发送自己的系统提示词，所以模型看不到它</translation>
    </message>
    <message>
        <source>, YaRN ×%1 from an original %2 tokens</source>
        <translation>，YaRN ×%1（原始上下文 %2 个 token）</translation>
    </message>
    <message>
        <source>%1 tokens, in %2 of %3 layers</source>
        <translation>%1 个 token，在 %3 层中的 %2 层</translation>
    </message>
    <message>
        <source>, magnitude ×%1 (log multiplier %2)</source>
        <translation>，幅度 ×%1（对数乘数 %2）</translation>
    </message>
    <message>
        <source>, the scaling only in the full layers (the windowed ones rotate plainly)</source>
        <translation>，缩放只用于全注意力层（滑动窗口层按原样旋转）</translation>
    </message>
    <message>
        <source>, then queries ×(1 + %1·ln(⌊position / %2⌋ + 1)): sharper past every %2 tokens</source>
        <translation>，之后查询 ×(1 + %1·ln(⌊位置 / %2⌋ + 1))：每过 %2 个 token，注意力更集中一些</translation>
    </message>
    <message>
        <source>%1: %2 short convolutions (%3 taps), %4 attention</source>
        <translation>%1：%2 个短卷积层（%3 个抽头），%4 个注意力层</translation>
    </message>
    <message>
        <source>%1 convolution layers: %2 per token, the last %3 tokens (%4 in all) · %5 attention layers: %6 per token, every token</source>
        <translation>%1 个卷积层：每 token %2，只留最近 %3 个 token（共 %4）· %5 个注意力层：每 token %6，保留每个 token</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::PdfBridge</name>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Producer</source>
        <translation>生成程序</translation>
    </message>
    <message>
        <source>PDF version</source>
        <translation>PDF 版本</translation>
    </message>
    <message>
        <source>this build has no PDF support; open a .txt file instead</source>
        <translation>此版本不支持 PDF；请改为打开 .txt 文件</translation>
    </message>
    <message>
        <source>wrong password</source>
        <translation>密码错误</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::PrefillChart</name>
    <message>
        <source>Prefill progress</source>
        <translation>预填充进度</translation>
    </message>
    <message>
        <source>time (ms)</source>
        <translation>时间（毫秒）</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation>尚无运行</translation>
    </message>
    <message>
        <source>cached</source>
        <translation>已缓存</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>ETA …</source>
        <translation>预计剩余 …</translation>
    </message>
    <message>
        <source>%1 of %2 tokens computed</source>
        <translation>计算了 %2 个 token 中的 %1 个</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token</translation>
    </message>
    <message>
        <source>%1 = %2 tokens in %3</source>
        <translation>%1 = %3 内 %2 个 token</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RemoteServerBox</name>
    <message>
        <source>Remote server</source>
        <translation>远程服务器</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <source>Empty: the server&apos;s first model. Test connection fills the list.</source>
        <translation>留空：使用服务器的第一个模型。“测试连接”会填充此列表。</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>a file whose first line is the key</source>
        <translation>首行为密钥的文件</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>API key file</source>
        <translation>API 密钥文件</translation>
    </message>
    <message>
        <source>API key file:</source>
        <translation>API 密钥文件：</translation>
    </message>
    <message>
        <source>The key is read from this file when the engine connects; it is never stored.</source>
        <translation>引擎连接时从此文件读取密钥；密钥从不保存。</translation>
    </message>
    <message>
        <source>No file: the key comes from KVLENS_API_KEY (set).</source>
        <translation>未指定文件：密钥来自 KVLENS_API_KEY（已设置）。</translation>
    </message>
    <message>
        <source>No file and KVLENS_API_KEY is not set: no key is sent.</source>
        <translation>未指定文件且未设置 KVLENS_API_KEY：不发送密钥。</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>A server that sends nothing for this long ends the run with an error</source>
        <translation>服务器在这么长时间内未发送任何数据时，运行以错误结束</translation>
    </message>
    <message>
        <source>Stall timeout:</source>
        <translation>停滞超时：</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Enter the server&apos;s URL, e.g. http://127.0.0.1:8080</source>
        <translation>请输入服务器的 URL，例如 http://127.0.0.1:8080</translation>
    </message>
    <message>
        <source>The server&apos;s URL must start with http:// or https://</source>
        <translation>服务器的 URL 必须以 http:// 或 https:// 开头</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>context %1 tokens</source>
        <translation>上下文 %1 个 token</translation>
    </message>
    <message>
        <source>the server does not say its context</source>
        <translation>服务器未说明其上下文长度</translation>
    </message>
    <message>
        <source>Connected: model %1, %2. %3</source>
        <translation>已连接：模型 %1，%2。%3</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RooflineChart</name>
    <message>
        <source>%1 prefill</source>
        <translation>%1 预填充</translation>
    </message>
    <message>
        <source>%1 decode</source>
        <translation>%1 解码</translation>
    </message>
    <message>
        <source>#%1 decode: %2 read per step → at least %3 at the measured %4/s; measured %5 per token</source>
        <translation>#%1 解码：每步读取 %2 → 按实测 %4/s 至少需要 %3；实测每个 token %5</translation>
    </message>
    <message>
        <source>Roofline: this machine&apos;s measured ceilings</source>
        <translation>屋顶线：本机实测的性能上限</translation>
    </message>
    <message>
        <source>arithmetic intensity, FLOP per byte read (counted)</source>
        <translation>算术强度，每读取一字节的 FLOP（计数）</translation>
    </message>
    <message>
        <source>achieved FLOP/s</source>
        <translation>实际 FLOP/s</translation>
    </message>
    <message>
        <source>f32 peak %1/s (%2)</source>
        <translation>f32 峰值 %1/s（%2）</translation>
    </message>
    <message>
        <source>int8 peak %1/s</source>
        <translation>int8 峰值 %1/s</translation>
    </message>
    <message>
        <source>memory %1/s (read probe)</source>
        <translation>内存 %1/s（读取探测）</translation>
    </message>
    <message>
        <source>measuring this machine&apos;s ceilings…</source>
        <translation>正在测量本机的性能上限…</translation>
    </message>
    <message>
        <source>no ceilings measured</source>
        <translation>尚未测量性能上限</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>FLOP per byte</source>
        <translation>每字节 FLOP</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RunController</name>
    <message>
        <source>The model could not be loaded</source>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <source>no model file chosen (Settings → Model file)</source>
        <translation>未选择模型文件（设置 → 模型文件）</translation>
    </message>
    <message>
        <source>Run %1 failed</source>
        <translation>运行 %1 失败</translation>
    </message>
    <message>
        <source>Map-reduce cannot start</source>
        <translation>无法开始 map-reduce</translation>
    </message>
    <message>
        <source>Open a report and load a model first.</source>
        <translation>请先打开报告并加载模型。</translation>
    </message>
    <message>
        <source>the model is not loaded</source>
        <translation>模型尚未加载</translation>
    </message>
    <message>
        <source>the context of %1 tokens leaves %2 for the text after the answer; lower the max new tokens</source>
        <translation>%1 个 token 的上下文在留出回答之后只剩 %2 个给文本；请降低最大新 token 数</translation>
    </message>
    <message>
        <source>map %1/%2</source>
        <translation>map %1/%2</translation>
    </message>
    <message>
        <source>combine %1/%2, round %3</source>
        <translation>合并 %1/%2，第 %3 轮</translation>
    </message>
    <message>
        <source>reduce</source>
        <translation>reduce</translation>
    </message>
    <message>
        <source>%1 · pages %2–%3 (%4 tokens)</source>
        <translation>%1 · 第 %2–%3 页（%4 个 token）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>no such run: %1</source>
        <translation>没有这次运行：%1</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RunHistoryModel</name>
    <message>
        <source>waiting for the engine</source>
        <translation>等待引擎</translation>
    </message>
    <message numerus="yes">
        <source>queued, %n prompt tokens</source>
        <translation>
            <numerusform>排队中，%n 个提示 token</numerusform>
        </translation>
    </message>
    <message>
        <source>prefill %1%</source>
        <translation>预填充 %1%</translation>
    </message>
    <message>
        <source>TTFT %1 · %2 tokens</source>
        <translation>首 token %1 · %2 个 token</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 cached</source>
        <translation>缓存 %1</translation>
    </message>
    <message>
        <source>TTFT %1 · %2</source>
        <translation>TTFT %1 · %2</translation>
    </message>
    <message>
        <source>saved run #%1: %2</source>
        <translation>保存的运行 #%1：%2</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Model file:</source>
        <translation>模型文件：</translation>
    </message>
    <message>
        <source>Paged blocks</source>
        <translation>分页块</translation>
    </message>
    <message>
        <source>Static reservation</source>
        <translation>静态预留</translation>
    </message>
    <message>
        <source>Off (recompute every step)</source>
        <translation>关闭（每步重新计算）</translation>
    </message>
    <message>
        <source>KV cache:</source>
        <translation>KV 缓存：</translation>
    </message>
    <message>
        <source>f16</source>
        <translation>f16</translation>
    </message>
    <message>
        <source>q8_0 (about half)</source>
        <translation>q8_0（约一半）</translation>
    </message>
    <message>
        <source>KV type:</source>
        <translation>KV 类型：</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <source>KV block size:</source>
        <translation>KV 块大小：</translation>
    </message>
    <message>
        <source>Prefill chunk:</source>
        <translation>预填充分块：</translation>
    </message>
    <message>
        <source>the model&apos;s</source>
        <translation>模型自身的</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>Parallel requests:</source>
        <translation>并行请求数：</translation>
    </message>
    <message>
        <source>one per core</source>
        <translation>每核一个</translation>
    </message>
    <message>
        <source>CPU threads:</source>
        <translation>CPU 线程：</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Max new tokens:</source>
        <translation>最大新 token 数：</translation>
    </message>
    <message>
        <source>0 (greedy)</source>
        <translation>0（贪心）</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation>Top-k：</translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation>Top-p：</translation>
    </message>
    <message>
        <source>Min-p:</source>
        <translation>Min-p：</translation>
    </message>
    <message>
        <source>Repeat penalty:</source>
        <translation>重复惩罚：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>This computer (CPU)</source>
        <translation>本机（CPU）</translation>
    </message>
    <message>
        <source>This computer (GPU, CUDA)</source>
        <translation>本机（GPU，CUDA）</translation>
    </message>
    <message>
        <source>Remote server…</source>
        <translation>远程服务器…</translation>
    </message>
    <message>
        <source>Engine:</source>
        <translation>引擎：</translation>
    </message>
    <message>
        <source>No usable CUDA device: %1. A CUDA choice runs on the CPU.</source>
        <translation>没有可用的 CUDA 设备：%1。选择 CUDA 时将在 CPU 上运行。</translation>
    </message>
    <message>
        <source>Choose a model file (a .gguf file).</source>
        <translation>请选择模型文件（.gguf 文件）。</translation>
    </message>
    <message>
        <source>The model file %1 does not exist.</source>
        <translation>模型文件 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation>%1 不是普通文件。</translation>
    </message>
    <message>
        <source>The model file %1 cannot be read: %2</source>
        <translation>无法读取模型文件 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a GGUF model (its first bytes are not &quot;GGUF&quot;).</source>
        <translation>%1 不是 GGUF 模型（其开头字节不是“GGUF”）。</translation>
    </message>
    <message>
        <source> per step</source>
        <translation> 个/步</translation>
    </message>
    <message>
        <source>Speculative decoding: tokens guessed from the report&apos;s own words and checked in one pass (a local engine; the greedy text stays the same)</source>
        <translation>投机解码：从报告原文中猜出若干 token，再用一次前向一并验证（仅限本地引擎；贪心解码的文本保持不变）</translation>
    </message>
    <message>
        <source>Draft tokens:</source>
        <translation>草稿 token：</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::StatsCard</name>
    <message>
        <source>Prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>tokens of the rendered prompt, template included</source>
        <translation>渲染后提示的 token 数（含模板）</translation>
    </message>
    <message>
        <source>prompt tokens whose KV was reused</source>
        <translation>KV 被复用的提示 token</translation>
    </message>
    <message>
        <source>Prefilled</source>
        <translation>已预填充</translation>
    </message>
    <message>
        <source>prompt tokens this run computed</source>
        <translation>本次运行计算的提示 token</translation>
    </message>
    <message>
        <source>Generated</source>
        <translation>已生成</translation>
    </message>
    <message>
        <source>tokens of the answer</source>
        <translation>回答的 token 数</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>submission → the scheduler took the request</source>
        <translation>提交 → 调度器接收请求</translation>
    </message>
    <message>
        <source>Tokenize</source>
        <translation>分词</translation>
    </message>
    <message>
        <source>chat template and tokenizer</source>
        <translation>对话模板和分词器</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>forward passes over the prompt</source>
        <translation>对提示的前向计算</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>首 token 时间</translation>
    </message>
    <message>
        <source>time to first token: queue + tokenize + prefill + sample</source>
        <translation>首 token 时间：排队 + 分词 + 预填充 + 采样</translation>
    </message>
    <message>
        <source>first token outside hidden reasoning</source>
        <translation>隐藏推理之外的首个 token</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>first token → last token</source>
        <translation>首个 token → 最后一个 token</translation>
    </message>
    <message>
        <source>End to end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <source>submission → done</source>
        <translation>提交 → 完成</translation>
    </message>
    <message>
        <source>Prefill speed</source>
        <translation>预填充速度</translation>
    </message>
    <message>
        <source>prefilled tokens / prefill time</source>
        <translation>预填充 token 数 / 预填充时间</translation>
    </message>
    <message>
        <source>Decode speed</source>
        <translation>解码速度</translation>
    </message>
    <message>
        <source>(generated − 1) / decode time</source>
        <translation>（生成数 − 1）/ 解码时间</translation>
    </message>
    <message>
        <source>Time per token</source>
        <translation>每 token 时间</translation>
    </message>
    <message>
        <source>decode time per token after the first</source>
        <translation>首个 token 之后每个 token 的解码时间</translation>
    </message>
    <message>
        <source>KV peak</source>
        <translation>KV 峰值</translation>
    </message>
    <message>
        <source>logical KV bytes at the end of the run</source>
        <translation>运行结束时的逻辑 KV 字节数</translation>
    </message>
    <message>
        <source>Device memory</source>
        <translation>设备内存</translation>
    </message>
    <message>
        <source>weights + KV pool + scratch</source>
        <translation>权重 + KV 池 + 临时缓冲</translation>
    </message>
    <message>
        <source>Prefill compute</source>
        <translation>预填充算力</translation>
    </message>
    <message>
        <source>achieved FLOP/s during the prefill</source>
        <translation>预填充期间实际达到的 FLOP/s</translation>
    </message>
    <message>
        <source>Decode bandwidth</source>
        <translation>解码带宽</translation>
    </message>
    <message>
        <source>achieved bytes read per second in decode</source>
        <translation>解码期间实际每秒读取的字节数</translation>
    </message>
    <message>
        <source>Figures — %1</source>
        <translation>指标 — %1</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Prefix cache</source>
        <translation>前缀缓存</translation>
    </message>
    <message>
        <source>First visible</source>
        <translation>首个可见</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>client: measured by kvlens&apos;s HTTP client (network included); server: reported by the server (usage, timings, prompt progress)</source>
        <translation>客户端：由 kvlens 的 HTTP 客户端测得（含网络）；服务器：由服务器报告（用量、计时、提示处理进度）</translation>
    </message>
    <message>
        <source>Drafts accepted</source>
        <translation>草稿接受</translation>
    </message>
    <message>
        <source>speculative decoding: the share of draft tokens the model accepted (vLLM&apos;s acceptance rate)</source>
        <translation>投机解码：模型接受的草稿 token 比例（vLLM 的接受率）</translation>
    </message>
    <message>
        <source>Tokens per step</source>
        <translation>每步 token 数</translation>
    </message>
    <message>
        <source>speculative decoding: tokens each checking step gave, its own included (vLLM&apos;s mean acceptance length)</source>
        <translation>投机解码：每个验证步产出的 token 数，含模型自己的那个（vLLM 的平均接受长度）</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::TaskPane</name>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>One line</source>
        <translation>一句话</translation>
    </message>
    <message>
        <source>Key points</source>
        <translation>要点</translation>
    </message>
    <message>
        <source>Detailed</source>
        <translation>详细</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Ask a question about the report…</source>
        <translation>就这份报告提一个问题…</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the task (Ctrl+Enter)</source>
        <translation>运行任务（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel the running requests (Esc)</source>
        <translation>取消正在运行的请求（Esc）</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Re-run the selected run with one thing changed; the result is overlaid on it.</source>
        <translation>只改一个条件重跑所选运行，结果叠加在原运行上。</translation>
    </message>
    <message>
        <source>KV cache off</source>
        <translation>关闭 KV 缓存</translation>
    </message>
    <message>
        <source>Every step recomputes the whole prefix: watch the latency climb.</source>
        <translation>每一步都重新计算整个前缀：注意延迟不断上升。</translation>
    </message>
    <message>
        <source>Half the document</source>
        <translation>文档减半</translation>
    </message>
    <message>
        <source>Follow-up question</source>
        <translation>追问</translation>
    </message>
    <message>
        <source>Same document, a new question: the prefix cache skips the prefill.</source>
        <translation>同一文档、新的问题：前缀缓存跳过了预填充。</translation>
    </message>
    <message>
        <source>Break the cache</source>
        <translation>破坏缓存</translation>
    </message>
    <message>
        <source>A timestamp in front of the system prompt: no prefix matches any more.</source>
        <translation>在系统提示前加时间戳：前缀不再匹配。</translation>
    </message>
    <message>
        <source>3 requests at once</source>
        <translation>同时 3 个请求</translation>
    </message>
    <message>
        <source>Half the prompt, run cold (no prefix reuse): prefill and TTFT shrink.</source>
        <translation>一半的提示，冷启动运行（不复用前缀）：预填充和 TTFT 都变短。</translation>
    </message>
    <message>
        <source>Detailed answer</source>
        <translation>详细回答</translation>
    </message>
    <message>
        <source>Asks for a detailed summary instead: TTFT stays flat, decode time grows.</source>
        <translation>改为要求详细摘要：TTFT 基本不变，解码时间变长。</translation>
    </message>
    <message>
        <source>One-line answer</source>
        <translation>一句话回答</translation>
    </message>
    <message>
        <source>Asks for one sentence instead: decode time falls, TTFT does not get shorter.</source>
        <translation>改为只要一句话：解码时间变短，TTFT 不会变短。</translation>
    </message>
    <message>
        <source>KV as q8_0</source>
        <translation>KV 用 q8_0</translation>
    </message>
    <message>
        <source>This model&apos;s heads are not a multiple of 32 dimensions, so q8_0&apos;s blocks of 32 would straddle two heads: its KV cache stays f16.</source>
        <translation>此模型每个头的维数不是 32 的倍数，q8_0 的 32 个一块会跨越两个头：它的 KV 缓存保持 f16。</translation>
    </message>
    <message>
        <source>The KV cache stored in 8 bits: about half the bytes per token, same answer length.</source>
        <translation>KV 缓存以 8 位存储：每 token 字节数约减半，回答长度不变。</translation>
    </message>
    <message>
        <source>Three copies together: each one&apos;s queue time and their total KV memory add up.</source>
        <translation>三个副本同时运行：各自的排队时间和总 KV 内存相加。</translation>
    </message>
    <message>
        <source>Prompt as the model reads it</source>
        <translation>模型读到的提示</translation>
    </message>
    <message>
        <source>The chat template&apos;s rendering of this task: the system prompt (and the template&apos;s own default, if it has one), the document and the instruction</source>
        <translation>对话模板对此任务的渲染结果：系统提示（以及模板自带的默认提示，如果有）、文档和指令</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>投机解码</translation>
    </message>
    <message>
        <source>Guesses a few tokens per step from the report&apos;s own words and checks them in one pass: the same text, faster only when the guesses are accepted.</source>
        <translation>每步从报告原文中猜几个 token，再用一次前向一并验证：文本不变，只有猜中时才更快。</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::TtftChart</name>
    <message>
        <source>Time to first token</source>
        <translation>首 token 时间</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>queue</source>
        <translation>排队</translation>
    </message>
    <message>
        <source>tokenize</source>
        <translation>分词</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>first sample</source>
        <translation>首次采样</translation>
    </message>
    <message>
        <source>%1: %2 = tokenize %3 + queue %4 + prefill %5 + first sample %6</source>
        <translation>%1：%2 = 分词 %3 + 排队 %4 + 预填充 %5 + 首次采样 %6</translation>
    </message>
    <message>
        <source>%1: tokenize %2 + queue %3 + prefill %4 so far</source>
        <translation>%1：目前为分词 %2 + 排队 %3 + 预填充 %4</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>TTFT (ms)</translation>
    </message>
    <message>
        <source>TTFT (s)</source>
        <translation>TTFT (s)</translation>
    </message>
    <message>
        <source>TTFT %1 = prefill of %2 tokens at %3</source>
        <translation>TTFT %1 = 以 %3 预填充 %2 个 token</translation>
    </message>
    <message>
        <source>%1: %2 at the client = queue %3 + server and network %4</source>
        <translation>%1：客户端测得 %2 = 排队 %3 + 服务器与网络 %4</translation>
    </message>
    <message>
        <source>hidden reasoning</source>
        <translation>隐藏推理</translation>
    </message>
    <message>
        <source>first visible token %1, after %2 hidden tokens</source>
        <translation>首个可见 token %1，在 %2 个隐藏 token 之后</translation>
    </message>
    <message>
        <source>no visible token yet, %1 hidden tokens</source>
        <translation>尚无可见 token，%1 个隐藏 token</translation>
    </message>
    <message>
        <source>tokenize: arrival → tokenized (chat template and tokenizer)
queue: tokenized → scheduled (vLLM&apos;s queue time)
prefill: scheduled → last prompt chunk computed
first sample: prefill done → first token sampled
Their sum is the TTFT (vLLM&apos;s time_to_first_token; what an OpenAI-compatible client measures to the first streamed token).
hidden reasoning (after TTFT): first token → first visible token (text outside &lt;think&gt;…&lt;/think&gt;)</source>
        <translation>分词：到达 → 分词完成（对话模板和分词器）
排队：分词完成 → 被调度（vLLM 的排队时间）
预填充：被调度 → 最后一个提示块计算完成
首次采样：预填充完成 → 采样出首个 token
四者之和即 TTFT（vLLM 的 time_to_first_token；兼容 OpenAI 的客户端测得的到首个流式 token 的时间）。
隐藏推理（TTFT 之后）：首个 token → 首个可见 token（&lt;think&gt;…&lt;/think&gt; 之外的文本）</translation>
    </message>
</context>
<context>
    <name>kvlens::ui</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>%1 image (*.%2)</source>
        <translation>%1 图像 (*.%2)</translation>
    </message>
    <message>
        <source>nothing to export</source>
        <translation>没有可导出的内容</translation>
    </message>
    <message>
        <source>the chart has no size yet</source>
        <translation>图表尚无尺寸</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>unknown image format &quot;%1&quot;</source>
        <translation>未知图像格式“%1”</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation>%1 需要一个值</translation>
    </message>
    <message>
        <source>unknown task &quot;%1&quot; (one-line, key-points, detailed)</source>
        <translation>未知任务“%1”（one-line、key-points、detailed）</translation>
    </message>
    <message>
        <source>--max-tokens needs a positive number</source>
        <translation>--max-tokens 需要一个正数</translation>
    </message>
    <message>
        <source>unknown argument &quot;%1&quot;</source>
        <translation>未知参数“%1”</translation>
    </message>
    <message>
        <source>--headless needs --out DIR</source>
        <translation>--headless 需要 --out 目录</translation>
    </message>
    <message>
        <source>no such report: %1</source>
        <translation>没有这份报告：%1</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>no model: pass --model FILE.gguf (or run scripts/fetch-model)</source>
        <translation>没有模型：请传入 --model 文件.gguf（或运行 scripts/fetch-model）</translation>
    </message>
    <message>
        <source>the model could not be loaded: %1</source>
        <translation>无法加载模型：%1</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>the run did not finish</source>
        <translation>运行没有完成</translation>
    </message>
    <message>
        <source>the engine failed: %1</source>
        <translation>引擎出错：%1</translation>
    </message>
    <message>
        <source>One-sentence summary</source>
        <translation>一句话摘要</translation>
    </message>
    <message>
        <source>Key points</source>
        <translation>要点</translation>
    </message>
    <message>
        <source>Detailed summary</source>
        <translation>详细摘要</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>KV cache off</source>
        <translation>关闭 KV 缓存</translation>
    </message>
    <message>
        <source>Half the document</source>
        <translation>文档减半</translation>
    </message>
    <message>
        <source>Longer answer</source>
        <translation>更长的回答</translation>
    </message>
    <message>
        <source>Shorter answer</source>
        <translation>更短的回答</translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation>追问</translation>
    </message>
    <message>
        <source>Cache broken</source>
        <translation>缓存被破坏</translation>
    </message>
    <message>
        <source>Concurrent</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>%1 of #%2</source>
        <translation>#%2 的%1</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>--pages needs A-B with 1 &lt;= A &lt;= B</source>
        <translation>--pages 需要 A-B，且 1 &lt;= A &lt;= B</translation>
    </message>
    <message>
        <source>2 × %1 layers × %2 KV heads × %3 dims × %4 = %5 B per token</source>
        <translation>2 × %1 层 × %2 个 KV 头 × %3 维 × %4 = 每 token %5 字节</translation>
    </message>
    <message>
        <source>loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>%1 has no extractable text (scanned pages?); nothing to summarize</source>
        <translation>%1 没有可提取的文本（扫描页？）；没有可摘要的内容</translation>
    </message>
    <message>
        <source>--pages %1-%2 is outside the document (%3 pages)</source>
        <translation>--pages %1-%2 超出了文档范围（共 %3 页）</translation>
    </message>
    <message>
        <source>running %1 on pages %2–%3 of %4…</source>
        <translation>正在对 %4 的第 %2–%3 页运行 %1…</translation>
    </message>
    <message>
        <source>map-reduce did not finish</source>
        <translation>map-reduce 未完成</translation>
    </message>
    <message>
        <source>map-reduce failed: %1</source>
        <translation>map-reduce 失败：%1</translation>
    </message>
    <message>
        <source>--long is map-reduce or fit, not &quot;%1&quot;</source>
        <translation>--long 只能是 map-reduce 或 fit，不能是“%1”</translation>
    </message>
    <message>
        <source>pages %1–%2 need %3 tokens plus %4 for the answer; the context holds %5</source>
        <translation>第 %1–%2 页需要 %3 个 token，另加 %4 个用于回答；上下文只能容纳 %5 个</translation>
    </message>
    <message>
        <source>%1, and not even page %2 alone fits; try --long map-reduce</source>
        <translation>%1，连第 %2 页单独都放不下；请改用 --long map-reduce</translation>
    </message>
    <message>
        <source>%1: running pages %2–%3, the largest range that fits</source>
        <translation>%1：改为运行第 %2–%3 页，即能放入的最大页范围</translation>
    </message>
    <message>
        <source>%1: map-reduce over them (--long fit: the largest range that fits instead)</source>
        <translation>%1：对全部页面做 map-reduce（--long fit：改为运行能放入的最大页范围）</translation>
    </message>
    <message>
        <source>prefill %1% (%2 of %3 prompt tokens)</source>
        <translation>预填充 %1%（%3 个提示 token 中的 %2 个）</translation>
    </message>
    <message>
        <source>TTFT %1: %2 of %3 prompt tokens came from the prefix cache</source>
        <translation>TTFT %1：%3 个提示 token 中有 %2 个来自前缀缓存</translation>
    </message>
    <message>
        <source>TTFT %1: %2 of %3 prompt tokens came from the prefix cache (a timestamp changed the first block)</source>
        <translation>TTFT %1：%3 个提示 token 中有 %2 个来自前缀缓存（时间戳改变了第一个块）</translation>
    </message>
    <message>
        <source>Prompt %1 tokens, run cold: TTFT %2, prefill %3</source>
        <translation>提示 %1 个 token，冷启动：TTFT %2，预填充 %3</translation>
    </message>
    <message>
        <source>Answer %1 tokens: decode time %2, while TTFT %3</source>
        <translation>回答 %1 个 token：解码时间 %2，而 TTFT %3</translation>
    </message>
    <message>
        <source>KV off: no cache kept (peak %1), %2 tokens recomputed by the decode steps; decode %3, time per token %4</source>
        <translation>KV 关闭：不保留缓存（峰值 %1），解码步骤共重新计算 %2 个 token；解码 %3，每 token 时间 %4</translation>
    </message>
    <message>
        <source>KV as q8_0: %1 per token, peak %2; decode %3</source>
        <translation>KV 用 q8_0：每 token %1，峰值 %2；解码 %3</translation>
    </message>
    <message>
        <source>%1 requests at once: KV %2 together (one alone: %3); queue %4</source>
        <translation>同时 %1 个请求：KV 合计 %2（单个时：%3）；排队 %4</translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>%1 token/秒</translation>
    </message>
    <message>
        <source>KV as q8_0</source>
        <translation>KV 用 q8_0</translation>
    </message>
    <message>
        <source>%1% of pp. %2–%3</source>
        <translation>第 %2–%3 页的 %1%</translation>
    </message>
    <message>
        <source>pp. %1–%2</source>
        <translation>第 %1–%2 页</translation>
    </message>
    <message>
        <source>one line</source>
        <translation>一句话</translation>
    </message>
    <message>
        <source>key points</source>
        <translation>要点</translation>
    </message>
    <message>
        <source>detailed</source>
        <translation>详细</translation>
    </message>
    <message>
        <source>question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>KV off</source>
        <translation>KV 关闭</translation>
    </message>
    <message>
        <source>half, cold</source>
        <translation>一半，冷启动</translation>
    </message>
    <message>
        <source>follow-up</source>
        <translation>追问</translation>
    </message>
    <message>
        <source>no reuse</source>
        <translation>不复用</translation>
    </message>
    <message>
        <source>at once %1</source>
        <translation>并发 %1</translation>
    </message>
    <message>
        <source>
[… %1 characters of the document …]
</source>
        <translation>
[… 文档的 %1 个字符 …]
</translation>
    </message>
    <message>
        <source>paged</source>
        <translation>分页</translation>
    </message>
    <message>
        <source>static</source>
        <translation>静态</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>reduce</source>
        <translation>归并</translation>
    </message>
    <message>
        <source>map %1</source>
        <translation>映射 %1</translation>
    </message>
    <message>
        <source>unknown event &quot;%1&quot;</source>
        <translation>未知事件“%1”</translation>
    </message>
    <message>
        <source>not a saved run (no settings or events)</source>
        <translation>不是保存的运行（没有设置或事件）</translation>
    </message>
    <message>
        <source>saved before it finished</source>
        <translation>在完成前保存</translation>
    </message>
    <message>
        <source>%1: cannot read (%2)</source>
        <translation>%1：无法读取（%2）</translation>
    </message>
    <message>
        <source>%1: not a saved run (%2)</source>
        <translation>%1：不是保存的运行（%2）</translation>
    </message>
    <message>
        <source>not an object</source>
        <translation>不是对象</translation>
    </message>
    <message>
        <source>--headless needs a report (or --lesson)</source>
        <translation>--headless 需要一份报告（或 --lesson）</translation>
    </message>
    <message>
        <source>| run | prompt tokens | cached | answer tokens | TTFT | prefill | decode | time per token | queue | KV peak | total |</source>
        <translation>| 运行 | 提示词 token | 缓存 | 回答 token | TTFT | 预填充 | 解码 | 每 token 时间 | 排队 | KV 峰值 | 总计 |</translation>
    </message>
    <message>
        <source># The lesson: prefill, decode and the KV cache, measured</source>
        <translation># 课程：实测预填充、解码与 KV 缓存</translation>
    </message>
    <message>
        <source>## %1. %2</source>
        <translation>## %1. %2</translation>
    </message>
    <message>
        <source>*What we change:* %1. *What to watch:* %2.</source>
        <translation>*改变什么：* %1。*观察什么：* %2。</translation>
    </message>
    <message>
        <source>**Skipped:** %1</source>
        <translation>**已跳过：** %1</translation>
    </message>
    <message>
        <source>**Failed:** %1</source>
        <translation>**失败：** %1</translation>
    </message>
    <message>
        <source>Not run.</source>
        <translation>未运行。</translation>
    </message>
    <message>
        <source>**Takeaway:** %1</source>
        <translation>**结论：** %1</translation>
    </message>
    <message>
        <source>unknown lesson step &quot;%1&quot;</source>
        <translation>未知的课程步骤“%1”</translation>
    </message>
    <message>
        <source>cannot read %1</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <source>no extractable text</source>
        <translation>没有可提取的文字</translation>
    </message>
    <message>
        <source>the lesson did not finish</source>
        <translation>课程未完成</translation>
    </message>
    <message>
        <source>kvlens · %1 · %2 · %3</source>
        <translation>kvlens · %1 · %2 · %3</translation>
    </message>
    <message>
        <source>the machine&apos;s ceilings could not be measured: %1</source>
        <translation>无法测量本机的性能上限：%1</translation>
    </message>
    <message>
        <source>Not run yet.</source>
        <translation>尚未运行。</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>no measurements</source>
        <translation>没有测量数据</translation>
    </message>
    <message>
        <source>least-squares line (R² %1)</source>
        <translation>最小二乘直线（R² %1）</translation>
    </message>
    <message>
        <source>Step %1 · %2</source>
        <translation>第 %1 步 · %2</translation>
    </message>
    <message>
        <source>A two-word question vs the report</source>
        <translation>两个词的问题 vs 整份报告</translation>
    </message>
    <message>
        <source>the input: the question alone, then the question after the whole report</source>
        <translation>输入：先只问问题，再把问题放在整份报告之后</translation>
    </message>
    <message>
        <source>TTFT: the report is read (prefilled) before the first token</source>
        <translation>TTFT：第一个 token 之前要先读完（预填充）报告</translation>
    </message>
    <message>
        <source>We ask &quot;%1&quot; alone, then after the whole report (both cold, greedy, at most %2 new tokens). Watch TTFT.</source>
        <translation>先单独问“%1”，再在整份报告之后问（都是冷启动、贪心解码、最多 %2 个新 token）。观察 TTFT。</translation>
    </message>
    <message>
        <source>A one-line vs a detailed answer</source>
        <translation>一句话回答 vs 详细回答</translation>
    </message>
    <message>
        <source>the output: a one-line summary, then a detailed one, on the same report</source>
        <translation>输出：同一份报告，先要一句话摘要，再要详细摘要</translation>
    </message>
    <message>
        <source>TTFT stays; the decode time grows with the answer</source>
        <translation>TTFT 不变；解码时间随回答变长</translation>
    </message>
    <message>
        <source>The same report (cold) with a one-line summary (at most %1 new tokens), then a detailed one (at most %2). Watch TTFT and the decode time.</source>
        <translation>同一份报告（冷启动），先要一句话摘要（最多 %1 个新 token），再要详细摘要（最多 %2 个）。观察 TTFT 和解码时间。</translation>
    </message>
    <message>
        <source>Input-length sweep</source>
        <translation>输入长度扫描</translation>
    </message>
    <message>
        <source>the length of the report: %1, %2, %3 and all of it, cold</source>
        <translation>报告长度：%1、%2、%3 和全文，冷启动</translation>
    </message>
    <message>
        <source>TTFT against prompt tokens with its least-squares line; time per output token against the context (the KV reads)</source>
        <translation>TTFT 与提示词 token 数的关系及其最小二乘直线；每个输出 token 的时间与上下文的关系（KV 读取）</translation>
    </message>
    <message>
        <source>The report cut to %1, %2, %3 and all of it, each run cold with at most %4 new tokens. Watch TTFT grow with the prompt, and the time per output token grow slowly.</source>
        <translation>报告截取为 %1、%2、%3 和全文，每次冷启动，最多 %4 个新 token。观察 TTFT 随提示词增长，而每个输出 token 的时间增长缓慢。</translation>
    </message>
    <message>
        <source>Output-length sweep</source>
        <translation>输出长度扫描</translation>
    </message>
    <message>
        <source>the answer limit: %1 new tokens</source>
        <translation>回答上限：%1 个新 token</translation>
    </message>
    <message>
        <source>decode time against answer tokens; TTFT</source>
        <translation>解码时间与回答 token 数的关系；TTFT</translation>
    </message>
    <message>
        <source>The same report (cold, a detailed summary) with at most %1 new tokens. Watch the decode time follow the answer&apos;s length while TTFT stays.</source>
        <translation>同一份报告（冷启动，详细摘要），最多 %1 个新 token。观察解码时间跟随回答长度，而 TTFT 不变。</translation>
    </message>
    <message>
        <source>KV cache on vs off</source>
        <translation>KV 缓存开 vs 关</translation>
    </message>
    <message>
        <source>the KV cache: kept (paged), then off (use_cache=False: every step recomputes the prefix)</source>
        <translation>KV 缓存：保留（分页），然后关闭（use_cache=False：每一步都重新计算前缀）</translation>
    </message>
    <message>
        <source>the latency of each token: flat with the cache, climbing without it; the total time</source>
        <translation>每个 token 的延迟：有缓存时平稳，无缓存时攀升；总时间</translation>
    </message>
    <message>
        <source>%1 of the report, at most %2 new tokens, with the KV cache and without it. Watch each token&apos;s latency.</source>
        <translation>报告的 %1，最多 %2 个新 token，分别开启和关闭 KV 缓存。观察每个 token 的延迟。</translation>
    </message>
    <message>
        <source>A follow-up question</source>
        <translation>追问</translation>
    </message>
    <message>
        <source>a second question on the same report, after the first answer</source>
        <translation>在第一次回答之后，就同一份报告再问一个问题</translation>
    </message>
    <message>
        <source>cached prompt tokens and TTFT: the prefix cache</source>
        <translation>缓存命中的提示词 token 与 TTFT：前缀缓存</translation>
    </message>
    <message>
        <source>A one-line summary of the report (at most %1 new tokens), then a follow-up question in the same conversation. Watch the cached tokens and TTFT.</source>
        <translation>先要报告的一句话摘要（最多 %1 个新 token），再在同一对话中追问。观察缓存的 token 和 TTFT。</translation>
    </message>
    <message>
        <source>A broken prefix</source>
        <translation>被破坏的前缀</translation>
    </message>
    <message>
        <source>the first bytes of the prompt: the same request again, then with a timestamp in the system prompt</source>
        <translation>提示词开头：同一请求再发一次，然后在系统提示词中加时间戳</translation>
    </message>
    <message>
        <source>cached prompt tokens: a change at the start means no reuse</source>
        <translation>缓存命中的提示词 token：开头一变就无法复用</translation>
    </message>
    <message>
        <source>A one-line summary (cold), the same request again, then the request with a timestamp in front of the system prompt. Watch the cached tokens.</source>
        <translation>一句话摘要（冷启动），同一请求再发一次，然后在系统提示词前加时间戳再发。观察缓存的 token。</translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation>同时发出多个请求</translation>
    </message>
    <message>
        <source>concurrency: one request alone, then %1 copies at once</source>
        <translation>并发：先单独一个请求，再同时发 %1 份</translation>
    </message>
    <message>
        <source>the queue time and the KV held together (KV × N)</source>
        <translation>排队时间与同时占用的 KV（KV × N）</translation>
    </message>
    <message>
        <source>A one-line summary of %1 of the report alone, then %2 copies submitted together (the engine decodes the number of requests set in Settings together; the rest queue). Watch the queue time and the KV.</source>
        <translation>单独对报告的 %1 要一句话摘要，然后同时提交 %2 份（引擎按设置中的数量同时解码，其余排队）。观察排队时间和 KV。</translation>
    </message>
    <message>
        <source>The KV cache as q8_0</source>
        <translation>以 q8_0 存储 KV 缓存</translation>
    </message>
    <message>
        <source>the KV cache&apos;s number format: f16, then q8_0</source>
        <translation>KV 缓存的数值格式：先 f16，后 q8_0</translation>
    </message>
    <message>
        <source>bytes per token and the KV peak; how many answer tokens change</source>
        <translation>每个 token 的字节数与 KV 峰值；回答中有多少 token 改变</translation>
    </message>
    <message>
        <source>The same request (cold, greedy, at most %1 new tokens) with the KV cache in f16 and in q8_0. Watch the memory and the answer.</source>
        <translation>同一请求（冷启动、贪心解码、最多 %1 个新 token），KV 缓存分别用 f16 和 q8_0。观察内存和回答。</translation>
    </message>
    <message>
        <source>A sliding-window model</source>
        <translation>滑动窗口模型</translation>
    </message>
    <message>
        <source>nothing: one run of a model whose local layers attend to a window</source>
        <translation>不变：运行一次局部层只关注一个窗口的模型</translation>
    </message>
    <message>
        <source>Hidden reasoning</source>
        <translation>隐藏推理</translation>
    </message>
    <message>
        <source>nothing: a question to a model that may think in &lt;think&gt;…&lt;/think&gt; first</source>
        <translation>不变：向可能先在 &lt;think&gt;…&lt;/think&gt; 中思考的模型提问</translation>
    </message>
    <message>
        <source>TTFT against the time to the first visible token</source>
        <translation>TTFT 与首个可见 token 时间的比较</translation>
    </message>
    <message>
        <source>A question on %1 of the report, at most %2 new tokens. Watch the hidden tokens before the first visible one.</source>
        <translation>就报告的 %1 提问，最多 %2 个新 token。观察首个可见 token 之前的隐藏 token。</translation>
    </message>
    <message>
        <source>no model is loaded</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>needs a sliding-window model (Gemma 3); %1 (%2) attends to the whole context in every layer</source>
        <translation>需要滑动窗口模型（Gemma 3）；%1（%2）的每一层都关注整个上下文</translation>
    </message>
    <message>
        <source>TTFT grew %1</source>
        <translation>TTFT 增加了 %1</translation>
    </message>
    <message>
        <source>TTFT fell %1</source>
        <translation>TTFT 下降了 %1</translation>
    </message>
    <message>
        <source>TTFT stayed about the same (%1)</source>
        <translation>TTFT 基本不变（%1）</translation>
    </message>
    <message>
        <source>%1 as the prompt grew %2 tokens: the whole report is prefilled before the first token (%3 tokens at %4).</source>
        <translation>%1，提示词从 %2 个 token 增长：第一个 token 之前要预填充整份报告（%3 个 token，速度 %4）。</translation>
    </message>
    <message>
        <source>%1 although the prompt grew %2 tokens: here the input did not lengthen the wait.</source>
        <translation>%1，尽管提示词从 %2 个 token 增长：这里输入没有延长等待。</translation>
    </message>
    <message>
        <source>the decode time grew %1 with the answer (%2 tokens)</source>
        <translation>解码时间随回答增加了 %1（%2 个 token）</translation>
    </message>
    <message>
        <source>the decode time fell %1 (answers of %2 tokens)</source>
        <translation>解码时间下降了 %1（回答 %2 个 token）</translation>
    </message>
    <message>
        <source>the decode time stayed about the same %1 (answers of %2 tokens)</source>
        <translation>解码时间基本不变 %1（回答 %2 个 token）</translation>
    </message>
    <message>
        <source>%1 (the same report), while %2.</source>
        <translation>%1（同一份报告），而%2。</translation>
    </message>
    <message>
        <source>The prompts all had the same length: no line to fit.</source>
        <translation>所有提示词长度相同：无法拟合直线。</translation>
    </message>
    <message>
        <source>fit: TTFT ≈ %1 + %2 ms × tokens, R² %3</source>
        <translation>拟合：TTFT ≈ %1 + %2 ms × token 数，R² %3</translation>
    </message>
    <message>
        <source>Each prompt token added %1 ms to TTFT (%2; %3 → %4 tokens: %5).</source>
        <translation>每个提示词 token 使 TTFT 增加 %1 ms（%2；%3 → %4 个 token：%5）。</translation>
    </message>
    <message>
        <source>TTFT did not grow with the prompt in these runs (%1; %2 → %3 tokens: %4).</source>
        <translation>在这些运行中 TTFT 没有随提示词增长（%1；%2 → %3 个 token：%4）。</translation>
    </message>
    <message>
        <source>The time per output token grew slowly with the context, %1 (+%2, %3 ms per 1,000 tokens of context): each step reads the KV of every earlier token.</source>
        <translation>每个输出 token 的时间随上下文缓慢增长，%1（+%2，每 1000 个上下文 token 增加 %3 ms）：每一步都要读取之前所有 token 的 KV。</translation>
    </message>
    <message>
        <source>The time per output token did not grow with the context here (%1): at these lengths reading the weights costs far more than reading the KV.</source>
        <translation>这里每个输出 token 的时间没有随上下文增长（%1）：在这个长度下读取权重的开销远大于读取 KV。</translation>
    </message>
    <message>
        <source>The answers all had %1 tokens (the model stopped on its own): no line to fit.</source>
        <translation>所有回答都是 %1 个 token（模型自行停止）：无法拟合直线。</translation>
    </message>
    <message>
        <source>The decode time followed the answer: %1 ms per token (fit, R² %2; %3 tokens: %4).</source>
        <translation>解码时间跟随回答长度：每个 token %1 ms（拟合，R² %2；%3 个 token：%4）。</translation>
    </message>
    <message>
        <source>The decode time did not grow with the answer in these runs (%1 tokens: %2).</source>
        <translation>在这些运行中解码时间没有随回答增长（%1 个 token：%2）。</translation>
    </message>
    <message>
        <source>%1 ms per token without the cache, %2 ms per token with it</source>
        <translation>无缓存时每个 token 增加 %1 ms，有缓存时每个 token 增加 %2 ms</translation>
    </message>
    <message>
        <source>Without the cache each token&apos;s latency climbed faster (%1): every step ran all %2 earlier tokens again (%3 recomputed in all).</source>
        <translation>没有缓存时每个 token 的延迟攀升更快（%1）：每一步都把之前的 %2 个 token 重新算一遍（共重算 %3 个）。</translation>
    </message>
    <message>
        <source>Without the cache the latency did not climb faster than with it (%1).</source>
        <translation>没有缓存时延迟并没有比有缓存时攀升得更快（%1）。</translation>
    </message>
    <message>
        <source>Total time %1: the cache saved the recomputation.</source>
        <translation>总时间 %1：缓存省去了重算。</translation>
    </message>
    <message>
        <source>Total time %1: without the cache it was faster here.</source>
        <translation>总时间 %1：这里没有缓存反而更快。</translation>
    </message>
    <message>
        <source>Total time about the same: %1.</source>
        <translation>总时间基本相同：%1。</translation>
    </message>
    <message>
        <source>The follow-up reused %1 of its %2 prompt tokens from the prefix cache (the report and the first answer).</source>
        <translation>追问从前缀缓存复用了 %2 个提示词 token 中的 %1 个（报告和第一次回答）。</translation>
    </message>
    <message>
        <source>The follow-up reused none of its %1 prompt tokens: no prefix cache hit.</source>
        <translation>追问的 %1 个提示词 token 一个也没有复用：前缀缓存未命中。</translation>
    </message>
    <message>
        <source>, prefilling %1 tokens instead of %2.</source>
        <translation>，只预填充 %1 个 token 而不是 %2 个。</translation>
    </message>
    <message>
        <source>the same request again reused %1 of %2 prompt tokens (TTFT %3); with a timestamp in the system prompt %4 of %5 (TTFT %6)</source>
        <translation>同一请求再发一次复用了 %2 个提示词 token 中的 %1 个（TTFT %3）；系统提示词加时间戳后为 %5 个中的 %4 个（TTFT %6）</translation>
    </message>
    <message>
        <source>A changed first block breaks reuse: %1. Keep what changes at the end of the prompt.</source>
        <translation>开头的块一变就无法复用：%1。把会变的内容放在提示词末尾。</translation>
    </message>
    <message>
        <source>The timestamp did not reduce reuse here: %1.</source>
        <translation>这里时间戳没有减少复用：%1。</translation>
    </message>
    <message>
        <source>With %1 requests at once the longest queue time was %2 (alone: %3): the ones beyond the engine&apos;s parallel slots waited.</source>
        <translation>同时 %1 个请求时最长排队时间为 %2（单独时：%3）：超出引擎并行槽位的请求需要等待。</translation>
    </message>
    <message>
        <source>With %1 requests at once no request waited longer than alone (queue %2, alone %3).</source>
        <translation>同时 %1 个请求时没有请求比单独时等待更久（排队 %2，单独 %3）。</translation>
    </message>
    <message>
        <source>Together they held %1 of KV at their peaks, %2× one request alone (%3).</source>
        <translation>它们峰值时合计占用 %1 的 KV，是单个请求（%3）的 %2 倍。</translation>
    </message>
    <message>
        <source>%1 per token (%2 of f16), peak %3</source>
        <translation>每个 token %1（为 f16 的 %2），峰值 %3</translation>
    </message>
    <message>
        <source>q8_0 held about half the KV memory: %1.</source>
        <translation>q8_0 的 KV 内存约为一半：%1。</translation>
    </message>
    <message>
        <source>q8_0 did not halve the KV memory here: %1.</source>
        <translation>这里 q8_0 没有把 KV 内存减半：%1。</translation>
    </message>
    <message>
        <source>The greedy answer was the same, token for token (%1 tokens).</source>
        <translation>贪心解码的回答逐 token 完全相同（%1 个 token）。</translation>
    </message>
    <message>
        <source>The greedy answer changed at %1 of %2 token positions, first at token %3.</source>
        <translation>贪心解码的回答在 %2 个 token 位置中有 %1 个改变，第一处在第 %3 个 token。</translation>
    </message>
    <message>
        <source>at %1 tokens held (window %2) the engine held %3; every layer for every token would be %4 (%1 × %5)</source>
        <translation>持有 %1 个 token 时（窗口 %2）引擎占用 %3；每层每个 token 都保存则为 %4（%1 × %5）</translation>
    </message>
    <message>
        <source>The run stayed inside the window, so no cap can show: %1.</source>
        <translation>这次运行没有超出窗口，因此看不出上限：%1。</translation>
    </message>
    <message>
        <source>The local layers capped their KV: %1.</source>
        <translation>局部层限制了其 KV：%1。</translation>
    </message>
    <message>
        <source>The engine does not cap the local layers&apos; KV yet: %1.</source>
        <translation>引擎尚未限制局部层的 KV：%1。</translation>
    </message>
    <message>
        <source>The model emitted no &lt;think&gt; block: 0 of %1 tokens were hidden, TTFT %2.</source>
        <translation>模型没有输出 &lt;think&gt; 块：%1 个 token 中 0 个被隐藏，TTFT %2。</translation>
    </message>
    <message>
        <source>All %1 tokens were hidden reasoning: TTFT %2, and no visible token within the limit.</source>
        <translation>全部 %1 个 token 都是隐藏推理：TTFT %2，上限内没有可见 token。</translation>
    </message>
    <message>
        <source>%1 of %2 tokens were hidden reasoning: TTFT %3, but the first visible token came at %4.</source>
        <translation>%2 个 token 中有 %1 个是隐藏推理：TTFT %3，但首个可见 token 在 %4 才出现。</translation>
    </message>
    <message>
        <source>token</source>
        <translation>token</translation>
    </message>
    <message>
        <source>latency, ms</source>
        <translation>延迟，ms</translation>
    </message>
    <message>
        <source>TTFT, ms</source>
        <translation>TTFT，ms</translation>
    </message>
    <message>
        <source>answer tokens</source>
        <translation>回答 token 数</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>decode time</source>
        <translation>解码时间</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation>提示词 token 数</translation>
    </message>
    <message>
        <source>time per output token × 10</source>
        <translation>每个输出 token 的时间 × 10</translation>
    </message>
    <message>
        <source>queue, ms</source>
        <translation>排队，ms</translation>
    </message>
    <message>
        <source>KV peak, bytes</source>
        <translation>KV 峰值，字节</translation>
    </message>
    <message>
        <source>remote %1</source>
        <translation>远程 %1</translation>
    </message>
    <message>
        <source>the local layers&apos; KV against the global layers&apos; KV as the tokens grow</source>
        <translation>随着 token 增加，局部层的 KV 与全局层的 KV 对比</translation>
    </message>
    <message>
        <source>The whole report on a sliding-window model (Gemma 3; a base model gets the report and the task as one text to continue), at most %1 new tokens. Watch the local layers&apos; KV flatten at the window while the global layers&apos; KV keeps rising.</source>
        <translation>在滑动窗口模型（Gemma 3；基础模型收到的是报告和任务合成的一段待续写文本）上处理整份报告，最多 %1 个新 token。观察局部层的 KV 在窗口处变平，而全局层的 KV 持续上升。</translation>
    </message>
    <message>
        <source>needs a model that thinks before it answers, in &lt;think&gt;…&lt;/think&gt; (Qwen3, DeepSeek-R1 distills) or in an analysis channel (gpt-oss); %1 has neither</source>
        <translation>需要一个先思考再回答的模型：在 &lt;think&gt;…&lt;/think&gt; 中（Qwen3、DeepSeek-R1 蒸馏模型）或在 analysis 通道中（gpt-oss）；%1 两者都没有</translation>
    </message>
    <message>
        <source>at %1 tokens held the local layers held %2 (%3 tokens each, window %4) and the global layers %5 (%1 tokens each); every layer for every token would be %6</source>
        <translation>持有 %1 个 token 时，局部层占用 %2（每层 %3 个 token，窗口 %4），全局层占用 %5（每层 %1 个 token）；若每层保存每个 token 则为 %6</translation>
    </message>
    <message>
        <source>The run stayed inside the window, so the local layers&apos; KV has not flattened yet: %1.</source>
        <translation>这次运行没有超出窗口，所以局部层的 KV 还没有变平：%1。</translation>
    </message>
    <message>
        <source>The local layers capped their KV at the window while the global layers&apos; KV kept growing: %1.</source>
        <translation>局部层的 KV 在窗口处封顶，而全局层的 KV 继续增长：%1。</translation>
    </message>
    <message>
        <source>The local layers did not cap their KV: %1.</source>
        <translation>局部层没有限制其 KV：%1。</translation>
    </message>
    <message>
        <source>tokens held</source>
        <translation>已存 token 数</translation>
    </message>
    <message>
        <source>KV, MiB</source>
        <translation>KV，MiB</translation>
    </message>
    <message>
        <source>local layers</source>
        <translation>局部层</translation>
    </message>
    <message>
        <source>global layers</source>
        <translation>全局层</translation>
    </message>
    <message>
        <source>local: %1 layers, %2 B per token, at most %3 tokens; global: %4 layers, %5 B per token, every token</source>
        <translation>局部：%1 层，每 token %2 B，最多 %3 个 token；全局：%4 层，每 token %5 B，保留每个 token</translation>
    </message>
    <message>
        <source>%1: %2 per token</source>
        <translation>%1：每 token %2</translation>
    </message>
    <message>
        <source>decode %1 for %2 tokens: %3 ms per token</source>
        <translation>%2 个 token 解码 %1：每 token %3 ms</translation>
    </message>
    <message>
        <source>TTFT %1 at %2 prompt tokens: %3 ms per token</source>
        <translation>%2 个提示词 token 时 TTFT %1：每 token %3 ms</translation>
    </message>
    <message>
        <source>TTFT %1, first visible token %2</source>
        <translation>TTFT %1，首个可见 token %2</translation>
    </message>
    <message>
        <source>local %1 = %2 tokens × %3 B</source>
        <translation>局部 %1 = %2 个 token × %3 B</translation>
    </message>
    <message>
        <source>--draft needs a number of draft tokens per step from 0 (off) to %1</source>
        <translation>--draft 需要每步草稿 token 数，取值 0（关闭）到 %1</translation>
    </message>
    <message>
        <source>the same answer</source>
        <translation>回答相同</translation>
    </message>
    <message>
        <source>a different answer (sampling)</source>
        <translation>回答不同（采样）</translation>
    </message>
    <message>
        <source>Without drafts: decode %1, time per token %2; %3</source>
        <translation>不用草稿：解码 %1，每 token 时间 %2；%3</translation>
    </message>
    <message>
        <source>Speculative decoding: %1 of %2 draft tokens accepted, %3 tokens per step; decode %4; %5</source>
        <translation>投机解码：%2 个草稿 token 中接受了 %1 个，每步 %3 个 token；解码 %4；%5</translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation>投机解码</translation>
    </message>
    <message>
        <source>drafts</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>no drafts</source>
        <translation>无草稿</translation>
    </message>
    <message>
        <source>decoding: one token per step, then up to %1 tokens guessed from the report and checked in one pass</source>
        <translation>解码方式：每步一个 token，然后每步最多 %1 个从报告中猜出、用一次前向验证的 token</translation>
    </message>
    <message>
        <source>the draft tokens accepted, tokens per step, the decode speed; the answer stays the same</source>
        <translation>被接受的草稿 token、每步 token 数、解码速度；回答保持不变</translation>
    </message>
    <message>
        <source>A question whose answer repeats the report (&quot;%1&quot;), greedy, at most %2 new tokens: decoded one token per step, then with drafts looked up in the report. Watch the latency: an accepted draft token comes with the step before it.</source>
        <translation>一个答案会复述报告的问题（“%1”），贪心解码，最多 %2 个新 token：先每步解码一个 token，再用从报告中查找的草稿。观察延迟：被接受的草稿 token 随前一步一起产出。</translation>
    </message>
    <message>
        <source>needs the local engine: a server decodes by its own rules</source>
        <translation>需要本地引擎：服务器按自己的规则解码</translation>
    </message>
    <message>
        <source>No draft was checked: nothing the model wrote had occurred in the prompt.</source>
        <translation>没有验证任何草稿：模型写出的内容在提示中都没有出现过。</translation>
    </message>
    <message>
        <source>%1 of %2 draft tokens were accepted: %3 tokens per checking step.</source>
        <translation>%2 个草稿 token 中接受了 %1 个：每个验证步产出 %3 个 token。</translation>
    </message>
    <message>
        <source>Decode %1: fewer steps for the same tokens.</source>
        <translation>解码 %1：同样的 token 用了更少的步数。</translation>
    </message>
    <message>
        <source>Decode %1: checking the drafts cost more than the accepted ones saved.</source>
        <translation>解码 %1：验证草稿的开销超过了被接受草稿省下的时间。</translation>
    </message>
    <message>
        <source>Decode about the same: %1.</source>
        <translation>解码速度基本不变：%1。</translation>
    </message>
    <message>
        <source>The answer was the same, token for token (%1 tokens).</source>
        <translation>回答逐 token 完全相同（%1 个 token）。</translation>
    </message>
    <message>
        <source>The answer changed at %1 of %2 token positions, first at token %3.</source>
        <translation>回答在 %2 个 token 位置中有 %1 个改变，第一处在第 %3 个 token。</translation>
    </message>
    <message>
        <source>Speculative decoding runs on the local engine only: the server decoded as it does (%1)</source>
        <translation>投机解码只在本地引擎上运行：服务器按自己的方式解码（%1）</translation>
    </message>
    <message>
        <source>2 × %1 attention layers × %2 KV heads × %3 dims × %4 = %5 B per token</source>
        <translation>2 × %1 个注意力层 × %2 个 KV 头 × %3 维 × %4 = 每 token %5 字节</translation>
    </message>
    <message>
        <source>convolutions: %1 layers, %2 B per token, the last %3 tokens; attention: %4 layers, %5 B per token, every token</source>
        <translation>卷积：%1 层，每 token %2 B，只留最近 %3 个 token；注意力：%4 层，每 token %5 B，保留每个 token</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::i18n</name>
    <message>
        <source>the prompt of %1 tokens does not fit the context of %2 tokens</source>
        <translation>%1 个 token 的提示放不进 %2 个 token 的上下文</translation>
    </message>
    <message>
        <source>none of the %1 pages has a text layer: scanned?</source>
        <translation>%1 页都没有文字层：是扫描件吗？</translation>
    </message>
    <message>
        <source>the page has no text layer: scanned?</source>
        <translation>此页没有文字层：是扫描件吗？</translation>
    </message>
    <message>
        <source>no text layer on page(s) %1: scanned?</source>
        <translation>第 %1 页没有文字层：是扫描件吗？</translation>
    </message>
    <message>
        <source>running headers and footers left out: %1 and more</source>
        <translation>已略去重复的页眉页脚：%1 等</translation>
    </message>
    <message>
        <source>running headers and footers left out: %1</source>
        <translation>已略去重复的页眉页脚：%1</translation>
    </message>
    <message>
        <source>KV pool full: %1 tokens need %2 more blocks, %3 available</source>
        <translation>KV 池已满：%1 个 token 还需要 %2 个块，只剩 %3 个</translation>
    </message>
    <message>
        <source>KV pool full: a static reservation of %1 tokens needs %2 blocks, %3 available</source>
        <translation>KV 池已满：静态预留 %1 个 token 需要 %2 个块，只剩 %3 个</translation>
    </message>
    <message>
        <source>out of memory while allocating the KV cache (%1 MiB)</source>
        <translation>分配 KV 缓存时内存不足（%1 MiB）</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a regular file</source>
        <translation>%1 不是普通文件</translation>
    </message>
    <message>
        <source>%1 is empty, not a GGUF file</source>
        <translation>%1 是空文件，不是 GGUF 文件</translation>
    </message>
    <message>
        <source>%1 is not a GGUF file</source>
        <translation>%1 不是 GGUF 文件</translation>
    </message>
    <message>
        <source>%1 is too short to be a GGUF file</source>
        <translation>%1 太短，不可能是 GGUF 文件</translation>
    </message>
    <message>
        <source>%1: unsupported GGUF version %2</source>
        <translation>%1：不支持的 GGUF 版本 %2</translation>
    </message>
    <message>
        <source>the prompt is empty</source>
        <translation>提示为空</translation>
    </message>
    <message>
        <source>the maximum of new tokens must be positive (got %1)</source>
        <translation>最大新 token 数必须为正数（得到 %1）</translation>
    </message>
    <message>
        <source>the engine reports: %1</source>
        <translation>引擎报告：%1</translation>
    </message>
    <message>
        <source>CPU: %1 threads, %2 kernels</source>
        <translation>CPU：%1 个线程，%2 内核</translation>
    </message>
    <message>
        <source>CPU: %1 threads, %2 kernels + AMX</source>
        <translation>CPU：%1 个线程，%2 内核 + AMX</translation>
    </message>
    <message>
        <source>(CUDA not used: %1; running on the CPU)</source>
        <translation>（未使用 CUDA：%1；在 CPU 上运行）</translation>
    </message>
    <message>
        <source>no NVIDIA driver found (libcuda is not installed or not loadable)</source>
        <translation>未找到 NVIDIA 驱动（libcuda 未安装或无法加载）</translation>
    </message>
    <message>
        <source>no CUDA device found</source>
        <translation>未找到 CUDA 设备</translation>
    </message>
    <message>
        <source>the NVIDIA driver supports CUDA %1, older than this build&apos;s runtime %2</source>
        <translation>NVIDIA 驱动支持 CUDA %1，低于本构建的运行时 %2</translation>
    </message>
    <message>
        <source>this build has no CUDA backend</source>
        <translation>本构建不含 CUDA 后端</translation>
    </message>
    <message>
        <source>%1 of weights and a %2 KV pool do not fit in the %3 free of %4</source>
        <translation>%1 权重加 %2 KV 池放不进 %4 中空闲的 %3</translation>
    </message>
    <message>
        <source>CUDA not used: %1; running on the CPU</source>
        <translation>未使用 CUDA：%1；在 CPU 上运行</translation>
    </message>
</context>
</TS>

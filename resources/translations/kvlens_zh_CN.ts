<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>kvlens::ui::AnswerPane</name>
    <message>
        <source>Tint tokens by latency</source>
        <translation>按延迟为词元着色</translation>
    </message>
    <message>
        <source>Each token&apos;s background shows how long it took to decode, from this run&apos;s fast tokens (10th percentile) to its slow ones (90th). The first token is blue: its time is the TTFT.</source>
        <translation>每个词元的背景色表示其解码耗时，从本次运行较快的词元（第 10 百分位）到较慢的词元（第 90 百分位）。首个词元为蓝色：它的时间就是首词元时间（TTFT）。</translation>
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
            <numerusform>正在写：%n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>done: reached the max new tokens</source>
        <translation>完成：达到最大新词元数</translation>
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
</context>
<context>
    <name>kvlens::ui::ChartPanel</name>
    <message>
        <source>Export chart…</source>
        <translation>导出图表…</translation>
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
        <translation>正在统计词元…</translation>
    </message>
    <message>
        <source>The prompt and an answer of %1 tokens fit the context of %2 tokens.</source>
        <translation>提示加上 %1 个词元的回答可以放入 %2 个词元的上下文。</translation>
    </message>
    <message>
        <source>Too long: choose fewer pages. The prompt and an answer of %1 tokens need more than the context of %2 tokens.</source>
        <translation>太长了：请选择更少的页面。提示加上 %1 个词元的回答超出了 %2 个词元的上下文。</translation>
    </message>
    <message>
        <source>%1 tokens · fits %2</source>
        <translation>%1 词元 · 可放入 %2</translation>
    </message>
    <message>
        <source>%1 tokens · exceeds %2</source>
        <translation>%1 词元 · 超出 %2</translation>
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
        <translation>已存词元数</translation>
    </message>
    <message>
        <source>KV cache (MiB)</source>
        <translation>KV 缓存（MiB）</translation>
    </message>
    <message>
        <source>KV cache (KiB)</source>
        <translation>KV 缓存（KiB）</translation>
    </message>
    <message>
        <source>%1 logical</source>
        <translation>%1 逻辑</translation>
    </message>
    <message>
        <source>%1 reserved</source>
        <translation>%1 预留</translation>
    </message>
    <message>
        <source>%1 at %2 tokens: %3 logical · %4 allocated · %5 reserved</source>
        <translation>%1 在 %2 词元时：逻辑 %3 · 已分配 %4 · 预留 %5</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>%1 blocks</source>
        <translation>%1 块</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::LatencyChart</name>
    <message>
        <source>Decode latency per token</source>
        <translation>每词元解码延迟</translation>
    </message>
    <message>
        <source>generated token</source>
        <translation>生成的词元</translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <source>%1 mean</source>
        <translation>%1 均值</translation>
    </message>
    <message>
        <source>%1: %2 tok/s, %3 per token</source>
        <translation>%1：%2 词元/秒，每词元 %3</translation>
    </message>
    <message>
        <source>lines: mean of %1 tokens</source>
        <translation>折线：%1 个词元的均值</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::MainWindow</name>
    <message>
        <source>The model could not be loaded</source>
        <translation>无法加载模型</translation>
    </message>
    <message>
        <source>About kvlens</source>
        <translation>关于 kvlens</translation>
    </message>
    <message>
        <source>&lt;h3&gt;kvlens %1&lt;/h3&gt;&lt;p&gt;A reading assistant that shows its work: the prefill, the first token, every decoded token and the KV cache, live.&lt;/p&gt;&lt;p&gt;Apache License 2.0&lt;/p&gt;</source>
        <translation>&lt;h3&gt;kvlens %1&lt;/h3&gt;&lt;p&gt;一个展示自身工作过程的阅读助手：实时显示预填充、首个词元、每个解码词元和 KV 缓存。&lt;/p&gt;&lt;p&gt;Apache 许可证 2.0&lt;/p&gt;</translation>
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
        <source>no model file chosen (Settings → Model file)</source>
        <translation>未选择模型文件（设置 → 模型文件）</translation>
    </message>
    <message>
        <source>no model file chosen</source>
        <translation>未选择模型文件</translation>
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
        <source>Run %1 failed</source>
        <translation>运行 %1 失败</translation>
    </message>
    <message>
        <source>no such run: %1</source>
        <translation>没有这次运行：%1</translation>
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
        <source>They need %1 tokens plus %2 for the answer; the context holds %3. Choose fewer pages.</source>
        <translation>它们需要 %1 个词元，回答还需 %2 个；上下文只能容纳 %3 个。请选择更少的页面。</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::MemoryChart</name>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation>内存（MiB）</translation>
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
        <translation>%1 词元（训练时：%2）</translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 词元</translation>
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
        <translation>%1 个词元，%2 对话格式</translation>
    </message>
    <message>
        <source>KV cache per token</source>
        <translation>每词元 KV 缓存</translation>
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
        <translation>每词元 KV 字节数 = %1</translation>
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
        <source>prompt tokens</source>
        <translation>提示词元</translation>
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
        <source>%1 tok/s</source>
        <translation>%1 词元/秒</translation>
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
        <translation>计算了 %2 个词元中的 %1 个</translation>
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
            <numerusform>排队中，%n 个提示词元</numerusform>
        </translation>
    </message>
    <message>
        <source>prefill %1%</source>
        <translation>预填充 %1%</translation>
    </message>
    <message>
        <source>TTFT %1 ms · %2 tokens</source>
        <translation>首词元 %1 毫秒 · %2 个词元</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>TTFT %1 ms · %2 tok/s</source>
        <translation>首词元 %1 毫秒 · %2 词元/秒</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>%1 cached</source>
        <translation>缓存 %1</translation>
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
        <source>Automatic (CUDA if present)</source>
        <translation>自动（有 CUDA 时使用 CUDA）</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>Backend:</source>
        <translation>后端：</translation>
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
        <translation> 词元</translation>
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
        <translation>最大新词元数：</translation>
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
</context>
<context>
    <name>kvlens::ui::StatsCard</name>
    <message>
        <source>Prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>tokens of the rendered prompt, template included</source>
        <translation>渲染后提示的词元数（含模板）</translation>
    </message>
    <message>
        <source>prompt tokens whose KV was reused</source>
        <translation>KV 被复用的提示词元</translation>
    </message>
    <message>
        <source>Prefilled</source>
        <translation>已预填充</translation>
    </message>
    <message>
        <source>prompt tokens this run computed</source>
        <translation>本次运行计算的提示词元</translation>
    </message>
    <message>
        <source>Generated</source>
        <translation>已生成</translation>
    </message>
    <message>
        <source>tokens of the answer</source>
        <translation>回答的词元数</translation>
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
        <translation>首词元时间</translation>
    </message>
    <message>
        <source>time to first token: queue + tokenize + prefill + sample</source>
        <translation>首词元时间：排队 + 分词 + 预填充 + 采样</translation>
    </message>
    <message>
        <source>first token outside hidden reasoning</source>
        <translation>隐藏推理之外的首个词元</translation>
    </message>
    <message>
        <source>Decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>first token → last token</source>
        <translation>首个词元 → 最后一个词元</translation>
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
        <translation>预填充词元数 / 预填充时间</translation>
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
        <translation>每词元时间</translation>
    </message>
    <message>
        <source>decode time per token after the first</source>
        <translation>首个词元之后每个词元的解码时间</translation>
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
</context>
<context>
    <name>kvlens::ui::TaskPane</name>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>One sentence</source>
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
        <translation>只改变一个条件重新运行所选运行；结果会叠加在原运行上。</translation>
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
        <source>Half the prompt: prefill and TTFT shrink.</source>
        <translation>提示减半：预填充和首词元时间都缩短。</translation>
    </message>
    <message>
        <source>Longer answer</source>
        <translation>更长的回答</translation>
    </message>
    <message>
        <source>Twice the max new tokens: TTFT stays, decode grows.</source>
        <translation>最大新词元数翻倍：首词元时间不变，解码时间增加。</translation>
    </message>
    <message>
        <source>Shorter answer</source>
        <translation>更短的回答</translation>
    </message>
    <message>
        <source>A quarter of the max new tokens: TTFT does not get shorter.</source>
        <translation>最大新词元数减为四分之一：首词元时间并不会变短。</translation>
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
        <source>Three copies together: queueing and KV memory add up.</source>
        <translation>三份副本同时运行：排队时间和 KV 内存叠加。</translation>
    </message>
</context>
<context>
    <name>kvlens::ui::TtftChart</name>
    <message>
        <source>Time to first token</source>
        <translation>首词元时间</translation>
    </message>
    <message>
        <source>time to first token (ms)</source>
        <translation>首词元时间（毫秒）</translation>
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
        <source>%1: %2 = queue %3 + tokenize %4 + prefill %5 + sample %6</source>
        <translation>%1：%2 = 排队 %3 + 分词 %4 + 预填充 %5 + 采样 %6</translation>
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
        <translation>2 × %1 层 × %2 个 KV 头 × %3 维 × %4 = 每词元 %5 字节</translation>
    </message>
</context>
</TS>

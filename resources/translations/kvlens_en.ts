<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>kvlens::ui::AnswerPane</name>
    <message>
        <source>Tint tokens by latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each token&apos;s background shows how long it took to decode, from this run&apos;s fast tokens (10th percentile) to its slow ones (90th). The first token is blue: its time is the TTFT.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loading the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading the report: %1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>writing: %n token(s)</source>
        <translation>
            <numerusform>writing: %n token</numerusform>
            <numerusform>writing: %n tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done: reached the max new tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a task and press Run (Ctrl+Enter): the answer streams in here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::ChartPanel</name>
    <message>
        <source>Export chart…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::DocumentPane</name>
    <message>
        <source>Open a report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a PDF with Ctrl+O or drop it here. The text stays on this machine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the sample report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find in text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no text layer on this page</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rendering…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>counting tokens…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompt and an answer of %1 tokens fit the context of %2 tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too long: choose fewer pages. The prompt and an answer of %1 tokens need more than the context of %2 tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens · fits %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens · exceeds %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no match</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kvlens::ui::EngineWorker</name>
    <message>
        <source>no model file chosen (Settings → Model file)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::HistoryPane</name>
    <message>
        <source>History</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overlay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A second run drawn on the same charts, dashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::KvChart</name>
    <message>
        <source>KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache (KiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 logical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 reserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2 tokens: %3 logical · %4 allocated · %5 reserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>formula</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 blocks</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::LatencyChart</name>
    <message>
        <source>Decode latency per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>generated token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>latency (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 mean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 tok/s, %3 per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lines: mean of %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::MainWindow</name>
    <message>
        <source>The model could not be loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About kvlens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;kvlens %1&lt;/h3&gt;&lt;p&gt;A reading assistant that shows its work: the prefill, the first token, every decoded token and the KV cache, live.&lt;/p&gt;&lt;p&gt;Apache License 2.0&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — kvlens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the &amp;sample report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Recent files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export all &amp;charts (PNG and SVG)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export run as CS&amp;V…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export run as &amp;JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run the task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About kvlens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live charts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reports (*.pdf *.txt *.md);;PDF (*.pdf);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sample report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sample report was not found next to the program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is protected. Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report could not be opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no model file chosen (Settings → Model file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no model file chosen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a report first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loading the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such run: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export all charts to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the charts in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Experiments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected pages are too long</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>They need %1 tokens plus %2 for the answer; the context holds %3. Choose fewer pages.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::MemoryChart</name>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scratch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: weights %2 · KV pool %3 · scratch %4</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::ModelPanel</name>
    <message>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not load the model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a GGUF file in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 query heads, %2 KV heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MQA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GQA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV %1× smaller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens (trained: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 M</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor types</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens, %2 chat format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (f16) · %2 (q8_0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV pool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV bytes per token = %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::PdfBridge</name>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Author</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Producer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this build has no PDF support; open a .txt file instead</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::PrefillChart</name>
    <message>
        <source>Prefill progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 tokens computed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RunHistoryModel</name>
    <message>
        <source>waiting for the engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>queued, %n prompt tokens</source>
        <translation>
            <numerusform>queued, %n prompt token</numerusform>
            <numerusform>queued, %n prompt tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>prefill %1%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT %1 ms · %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT %1 ms · %2 tok/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cached</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic (CUDA if present)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backend:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paged blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Static reservation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off (recompute every step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>f16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q8_0 (about half)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV block size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefill chunk:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel requests:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one per core</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max new tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>0 (greedy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-k:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top-p:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min-p:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat penalty:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::StatsCard</name>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens of the rendered prompt, template included</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt tokens whose KV was reused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefilled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt tokens this run computed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens of the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>submission → the scheduler took the request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokenize</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chat template and tokenizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>forward passes over the prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time to first token: queue + tokenize + prefill + sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first token outside hidden reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first token → last token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End to end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>submission → done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefill speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prefilled tokens / prefill time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(generated − 1) / decode time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decode time per token after the first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>logical KV bytes at the end of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weights + KV pool + scratch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefill compute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>achieved FLOP/s during the prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode bandwidth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>achieved bytes read per second in decode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Figures — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Figures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prefix cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First visible</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::TaskPane</name>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One sentence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detailed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask a question about the report…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the task (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the running requests (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-run the selected run with one thing changed; the result is overlaid on it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every step recomputes the whole prefix: watch the latency climb.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Half the document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Half the prompt: prefill and TTFT shrink.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longer answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Twice the max new tokens: TTFT stays, decode grows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shorter answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A quarter of the max new tokens: TTFT does not get shorter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow-up question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same document, a new question: the prefix cache skips the prefill.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Break the cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A timestamp in front of the system prompt: no prefix matches any more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 requests at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Three copies together: queueing and KV memory add up.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::TtftChart</name>
    <message>
        <source>Time to first token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time to first token (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokenize</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 = queue %3 + tokenize %4 + prefill %5 + sample %6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui</name>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 image (*.%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the chart has no size yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown image format &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 needs a value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown task &quot;%1&quot; (one-line, key-points, detailed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--max-tokens needs a positive number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown argument &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--headless needs --out DIR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such report: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no model: pass --model FILE.gguf (or run scripts/fetch-model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model could not be loaded: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run did not finish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the engine failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One-sentence summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detailed summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Half the document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Longer answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shorter answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cache broken</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Concurrent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--pages needs A-B with 1 &lt;= A &lt;= B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 × %1 layers × %2 KV heads × %3 dims × %4 = %5 B per token</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

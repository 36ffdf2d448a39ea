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
    <message>
        <source>⚠ the answer repeats itself (a small model looping): try fewer pages or a larger model</source>
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
    <name>kvlens::ui::ChartsBoard</name>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline</source>
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
    <message>
        <source>Use pages %1–%2 (the most that fit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The largest page range from page %1 whose text fits the context with room for the answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map-reduce all pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarize each part that fits on its own, then the summaries together; every stage is a run in the history, named by its pages.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The page could not be rendered: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too long: choose fewer pages, use the suggested range, or map-reduce. The prompt and an answer of %1 tokens need more than the context of %2 tokens.</source>
        <translation type="unfinished"></translation>
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
        <source>%1 logical</source>
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
        <source>Zoom to decode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only the decode steps, where the block staircase is visible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 recomputed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decode step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: KV off, no cache kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: KV off, no cache kept; step %2 recomputed %3 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>logical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV (MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recomputed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV (KiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 server KV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>server KV cache in use (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the server does not report its KV cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the server&apos;s whole KV cache, %2% in use (server /metrics)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2 tokens × %3 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 held at %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>global layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2 tokens: local %3 (%4 tokens) · global %5 · %6 allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 = %3 tokens × %4 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 held at %3 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>global</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>convolution state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>convolutions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2 tokens: convolutions %3 (%4 tokens) · attention %5 · %6 allocated</source>
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
    <message>
        <source>hidden reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first visible token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 hidden tokens: TTFT %2, first visible token %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 hidden tokens: TTFT %2, no visible token yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean TPOT %1 = %2 over %3 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>accepted drafts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens from accepted drafts (no step of their own)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::LessonPane</name>
    <message>
        <source>kvlens · %1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report: the open document, else the built-in sample report.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report: %1 (%2 slices)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the lesson&apos;s slides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export slides…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Slide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::LessonRunner</name>
    <message>
        <source>step %1 (%2) skipped: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>question alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>question + report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one-line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detailed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timestamp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at once %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>f16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q8_0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>whole report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a run gave no figures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step %1 %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drafts</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::MainWindow</name>
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
        <source>%1 (small demo model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 · runs on %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map-reduce: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map-reduce finished: the last run holds the answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map-reduce stopped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open another &amp;model (GGUF)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrong password for %1. Try again:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrong password for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>They need %1 tokens plus %2 for the answer; the context holds %3. Choose fewer pages, run the largest range that fits, or summarize all of them by map-reduce.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the pages that fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map-reduce all pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without the cache every one of the %1 steps recomputes about %2 tokens: about %3 in all, estimated from run #%4&apos;s prefill speed (%5). Run it on the first %6 tokens instead?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run it all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved runs skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat format: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The template&apos;s own system prompt, used only when a chat has none (not sent here): “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · runs on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Lesson mode…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not a model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No chat template (a base model): the turns as one text to continue</source>
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
    <message>
        <source>%1 at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · on %1: %2 free of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the server does not report its memory</source>
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
        <source>Experts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 per layer, %2 per token, %3 rows each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, and a shared expert of %1 rows every token runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; chosen by sigmoid plus an expert bias</source>
        <translation>; chosen by sigmoid plus an expert bias</translation>
    </message>
    <message>
        <source>; chosen by the softmax plus an expert bias</source>
        <translation>; chosen by the softmax plus an expert bias</translation>
    </message>
    <message>
        <source>; weighted by the softmax of the chosen experts&apos; logits, with biases</source>
        <translation>; weighted by the softmax of the chosen experts&apos; logits, with biases</translation>
    </message>
    <message>
        <source>Attention sinks</source>
        <translation>Attention sinks</translation>
    </message>
    <message>
        <source>a learned logit per head joins each softmax, so a head can attend to nothing</source>
        <translation>a learned logit per head joins each softmax, so a head can attend to nothing</translation>
    </message>
    <message numerus="yes">
        <source>; the first %n layer(s) dense</source>
        <translation>
            <numerusform>; the first layer dense</numerusform>
            <numerusform>; the first %n layers dense</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 M, %2 M of them per token</source>
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
    <message>
        <source>Model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (the first of %2 parts)</source>
        <translation>%1 (the first of %2 parts)</translation>
    </message>
    <message>
        <source>Open another GGUF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a different model file (File → Open another model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is a small demo model (135 M parameters): it shows every figure live even on a laptop, but its answers are simple and it may repeat itself. Open a larger GGUF for better answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;What the figures mean&lt;/b&gt; (each measured by the engine between two moments; the four TTFT parts add up to TTFT):&lt;br&gt;&lt;b&gt;tokenize&lt;/b&gt;: arrival → tokenized (chat template and tokenizer; vLLM does this in its API server)&lt;br&gt;&lt;b&gt;queue&lt;/b&gt;: tokenized → scheduled (vLLM&apos;s request_queue_time)&lt;br&gt;&lt;b&gt;prefill&lt;/b&gt;: scheduled → the last prompt chunk computed&lt;br&gt;&lt;b&gt;first sample&lt;/b&gt;: prefill done → first token sampled (vLLM&apos;s prefill time is prefill + first sample)&lt;br&gt;&lt;b&gt;TTFT&lt;/b&gt;: arrival → first token (vLLM&apos;s time_to_first_token; what an OpenAI-compatible client measures to the first streamed token, less the network)&lt;br&gt;&lt;b&gt;ITL&lt;/b&gt;: the gap between two tokens (the latency chart); &lt;b&gt;TPOT&lt;/b&gt;: decode time ÷ (tokens − 1)&lt;br&gt;&lt;b&gt;prompt / cached / generated tokens&lt;/b&gt;: OpenAI&apos;s usage.prompt_tokens, prompt_tokens_details.cached_tokens and completion_tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the template always puts the knowledge-cutoff lines in front)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no system role in this format: it opens the first user turn)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template&apos;s default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (the template adds no system prompt of its own)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” — inserted when a chat brings no system prompt; kvlens always sends its own, so the model does not see it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server does not say</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not reported by the server: layers, heads, KV bytes per token and the KV pool are the server&apos;s own</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV layer groups</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 local layers: %2 per token, capped at %3 tokens (%4 at most) · %5 global layers: %6 per token, every token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens; no chat template in the file (a base model): runs send the report and the task as one text to continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>may think in &lt;think&gt;…&lt;/think&gt; first (the tags are tokens of its vocabulary)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>may think in &lt;think&gt;…&lt;/think&gt; first (its chat template writes the tags)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reasons in its analysis channel first, then answers in its final channel (Harmony format)</source>
        <translation>reasons in its analysis channel first, then answers in its final channel (Harmony format)</translation>
    </message>
    <message>
        <source>(a base model: the first paragraph of the text it continues)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>base %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, Llama 3.1 frequency factors (rope_freqs.weight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, linear scaling ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, LongRoPE long factors (this context of %1 tokens passes the original %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, LongRoPE short factors (this context of %1 tokens fits the original %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, attention factor ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no system role in this format: it opens the last user turn)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing: this model&apos;s chat template leaves the system prompt out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention scores at ±%1 before the softmax</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>logits at ±%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Soft-capping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, in no layer (the file turns it off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, not in %1 of %2 layers (NoPE, no positions: layers %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embeddings ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attention scores ×%1 (instead of 1/√%2 = %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>block outputs ×%1 before the residual add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>logits ÷%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scales</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before and after each block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before each block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after each block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, Q and K per head</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, Q and K per head after RoPE</source>
        <translation>, Q and K per head after RoPE</translation>
    </message>
    <message>
        <source>, Q and K over whole rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one per layer, read by attention and the feed-forward block side by side</source>
        <translation>one per layer, read by attention and the feed-forward block side by side</translation>
    </message>
    <message>
        <source>LayerNorms</source>
        <translation>LayerNorms</translation>
    </message>
    <message>
        <source>logits ×%1</source>
        <translation>logits ×%1</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Positions</translation>
    </message>
    <message>
        <source>learned: position p&apos;s row of a table is added to token p&apos;s embedding (no RoPE); %1 rows, so no context is longer</source>
        <translation>learned: position p&apos;s row of a table is added to token p&apos;s embedding (no RoPE); %1 rows, so no context is longer</translation>
    </message>
    <message>
        <source>, each with a bias</source>
        <translation>, each with a bias</translation>
    </message>
    <message>
        <source>one per block, the blocks side by side from the same input</source>
        <translation>one per block, the blocks side by side from the same input</translation>
    </message>
    <message>
        <source>, over the first %1 of each head&apos;s %2 dimensions</source>
        <translation>, over the first %1 of each head&apos;s %2 dimensions</translation>
    </message>
    <message>
        <source>%1 (f16) · q8_0 not possible: its blocks of 32 would straddle heads of %2</source>
        <translation>%1 (f16) · q8_0 not possible: its blocks of 32 would straddle heads of %2</translation>
    </message>
    <message>
        <source>RMS norms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one holding today&apos;s date, inserted when a chat brings no system prompt; kvlens always sends its own, so the model does not see it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, YaRN ×%1 from an original %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens, in %2 of %3 layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, magnitude ×%1 (log multiplier %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, the scaling only in the full layers (the windowed ones rotate plainly)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, then queries ×(1 + %1·ln(⌊position / %2⌋ + 1)): sharper past every %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 short convolutions (%3 taps), %4 attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 convolution layers: %2 per token, the last %3 tokens (%4 in all) · %5 attention layers: %6 per token, every token</source>
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
    <message>
        <source>wrong password</source>
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
    <message>
        <source>time (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2 tokens in %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RemoteServerBox</name>
    <message>
        <source>Remote server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Empty: the server&apos;s first model. Test connection fills the list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a file whose first line is the key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is read from this file when the engine connects; it is never stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No file: the key comes from KVLENS_API_KEY (set).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No file and KVLENS_API_KEY is not set: no key is sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A server that sends nothing for this long ends the run with an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stall timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the server&apos;s URL, e.g. http://127.0.0.1:8080</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s URL must start with http:// or https://</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context %1 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server does not say its context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected: model %1, %2. %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RooflineChart</name>
    <message>
        <source>%1 prefill</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 decode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 decode: %2 read per step → at least %3 at the measured %4/s; measured %5 per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline: this machine&apos;s measured ceilings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>arithmetic intensity, FLOP per byte read (counted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>achieved FLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>f32 peak %1/s (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>int8 peak %1/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory %1/s (read probe)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>measuring this machine&apos;s ceilings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no ceilings measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FLOP per byte</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::RunController</name>
    <message>
        <source>The model could not be loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no model file chosen (Settings → Model file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map-reduce cannot start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a report and load a model first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model is not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the context of %1 tokens leaves %2 for the text after the answer; lower the max new tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>map %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>combine %1/%2, round %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduce</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · pages %2–%3 (%4 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such run: %1</source>
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
        <source>TTFT %1 · %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: %1</source>
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
    <message>
        <source>TTFT %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved run #%1: %2</source>
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
    <message>
        <source>This computer (CPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer (GPU, CUDA)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remote server…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Engine:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No usable CUDA device: %1. A CUDA choice runs on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a model file (a .gguf file).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model file %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model file %1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a GGUF model (its first bytes are not &quot;GGUF&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding: tokens guessed from the report&apos;s own words and checked in one pass (a local engine; the greedy text stays the same)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft tokens:</source>
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
    <message>
        <source>server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client: measured by kvlens&apos;s HTTP client (network included); server: reported by the server (usage, timings, prompt progress)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drafts accepted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>speculative decoding: the share of draft tokens the model accepted (vLLM&apos;s acceptance rate)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>speculative decoding: tokens each checking step gave, its own included (vLLM&apos;s mean acceptance length)</source>
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
        <source>Half the prompt, run cold (no prefix reuse): prefill and TTFT shrink.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detailed answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asks for a detailed summary instead: TTFT stays flat, decode time grows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One-line answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asks for one sentence instead: decode time falls, TTFT does not get shorter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV as q8_0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This model&apos;s heads are not a multiple of 32 dimensions, so q8_0&apos;s blocks of 32 would straddle two heads: its KV cache stays f16.</source>
        <translation>This model&apos;s heads are not a multiple of 32 dimensions, so q8_0&apos;s blocks of 32 would straddle two heads: its KV cache stays f16.</translation>
    </message>
    <message>
        <source>The KV cache stored in 8 bits: about half the bytes per token, same answer length.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Three copies together: each one&apos;s queue time and their total KV memory add up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt as the model reads it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chat template&apos;s rendering of this task: the system prompt (and the template&apos;s own default, if it has one), the document and the instruction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guesses a few tokens per step from the report&apos;s own words and checks them in one pass: the same text, faster only when the guesses are accepted.</source>
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
        <source>%1: %2 = tokenize %3 + queue %4 + prefill %5 + first sample %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: tokenize %2 + queue %3 + prefill %4 so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT %1 = prefill of %2 tokens at %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 at the client = queue %3 + server and network %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hidden reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first visible token %1, after %2 hidden tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no visible token yet, %1 hidden tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokenize: arrival → tokenized (chat template and tokenizer)
queue: tokenized → scheduled (vLLM&apos;s queue time)
prefill: scheduled → last prompt chunk computed
first sample: prefill done → first token sampled
Their sum is the TTFT (vLLM&apos;s time_to_first_token; what an OpenAI-compatible client measures to the first streamed token).
hidden reasoning (after TTFT): first token → first visible token (text outside &lt;think&gt;…&lt;/think&gt;)</source>
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
    <message>
        <source>loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no extractable text (scanned pages?); nothing to summarize</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--pages %1-%2 is outside the document (%3 pages)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running %1 on pages %2–%3 of %4…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>map-reduce did not finish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>map-reduce failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--long is map-reduce or fit, not &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pages %1–%2 need %3 tokens plus %4 for the answer; the context holds %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, and not even page %2 alone fits; try --long map-reduce</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: running pages %2–%3, the largest range that fits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: map-reduce over them (--long fit: the largest range that fits instead)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prefill %1% (%2 of %3 prompt tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT %1: %2 of %3 prompt tokens came from the prefix cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT %1: %2 of %3 prompt tokens came from the prefix cache (a timestamp changed the first block)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt %1 tokens, run cold: TTFT %2, prefill %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer %1 tokens: decode time %2, while TTFT %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV off: no cache kept (peak %1), %2 tokens recomputed by the decode steps; decode %3, time per token %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV as q8_0: %1 per token, peak %2; decode %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 requests at once: KV %2 together (one alone: %3); queue %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV as q8_0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of pp. %2–%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pp. %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>detailed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>half, cold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>follow-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no reuse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at once %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
[… %1 characters of the document …]
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>static</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reduce</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>map %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown event &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a saved run (no settings or events)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saved before it finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot read (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a saved run (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--headless needs a report (or --lesson)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>| run | prompt tokens | cached | answer tokens | TTFT | prefill | decode | time per token | queue | KV peak | total |</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source># The lesson: prefill, decode and the KV cache, measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>## %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>*What we change:* %1. *What to watch:* %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**Skipped:** %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**Failed:** %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**Takeaway:** %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown lesson step &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no extractable text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lesson did not finish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kvlens · %1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the machine&apos;s ceilings could not be measured: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no measurements</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>least-squares line (R² %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A two-word question vs the report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the input: the question alone, then the question after the whole report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT: the report is read (prefilled) before the first token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>We ask &quot;%1&quot; alone, then after the whole report (both cold, greedy, at most %2 new tokens). Watch TTFT.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A one-line vs a detailed answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the output: a one-line summary, then a detailed one, on the same report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT stays; the decode time grows with the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same report (cold) with a one-line summary (at most %1 new tokens), then a detailed one (at most %2). Watch TTFT and the decode time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input-length sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the length of the report: %1, %2, %3 and all of it, cold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT against prompt tokens with its least-squares line; time per output token against the context (the KV reads)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report cut to %1, %2, %3 and all of it, each run cold with at most %4 new tokens. Watch TTFT grow with the prompt, and the time per output token grow slowly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output-length sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the answer limit: %1 new tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decode time against answer tokens; TTFT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same report (cold, a detailed summary) with at most %1 new tokens. Watch the decode time follow the answer&apos;s length while TTFT stays.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV cache on vs off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the KV cache: kept (paged), then off (use_cache=False: every step recomputes the prefix)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the latency of each token: flat with the cache, climbing without it; the total time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the report, at most %2 new tokens, with the KV cache and without it. Watch each token&apos;s latency.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A follow-up question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a second question on the same report, after the first answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cached prompt tokens and TTFT: the prefix cache</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A one-line summary of the report (at most %1 new tokens), then a follow-up question in the same conversation. Watch the cached tokens and TTFT.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A broken prefix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the first bytes of the prompt: the same request again, then with a timestamp in the system prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cached prompt tokens: a change at the start means no reuse</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A one-line summary (cold), the same request again, then the request with a timestamp in front of the system prompt. Watch the cached tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>concurrency: one request alone, then %1 copies at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the queue time and the KV held together (KV × N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A one-line summary of %1 of the report alone, then %2 copies submitted together (the engine decodes the number of requests set in Settings together; the rest queue). Watch the queue time and the KV.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The KV cache as q8_0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the KV cache&apos;s number format: f16, then q8_0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bytes per token and the KV peak; how many answer tokens change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same request (cold, greedy, at most %1 new tokens) with the KV cache in f16 and in q8_0. Watch the memory and the answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sliding-window model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing: one run of a model whose local layers attend to a window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden reasoning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing: a question to a model that may think in &lt;think&gt;…&lt;/think&gt; first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT against the time to the first visible token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A question on %1 of the report, at most %2 new tokens. Watch the hidden tokens before the first visible one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no model is loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs a sliding-window model (Gemma 3); %1 (%2) attends to the whole context in every layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT grew %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT fell %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT stayed about the same (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 as the prompt grew %2 tokens: the whole report is prefilled before the first token (%3 tokens at %4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 although the prompt grew %2 tokens: here the input did not lengthen the wait.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the decode time grew %1 with the answer (%2 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the decode time fell %1 (answers of %2 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the decode time stayed about the same %1 (answers of %2 tokens)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (the same report), while %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompts all had the same length: no line to fit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fit: TTFT ≈ %1 + %2 ms × tokens, R² %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each prompt token added %1 ms to TTFT (%2; %3 → %4 tokens: %5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT did not grow with the prompt in these runs (%1; %2 → %3 tokens: %4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The time per output token grew slowly with the context, %1 (+%2, %3 ms per 1,000 tokens of context): each step reads the KV of every earlier token.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The time per output token did not grow with the context here (%1): at these lengths reading the weights costs far more than reading the KV.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answers all had %1 tokens (the model stopped on its own): no line to fit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The decode time followed the answer: %1 ms per token (fit, R² %2; %3 tokens: %4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The decode time did not grow with the answer in these runs (%1 tokens: %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms per token without the cache, %2 ms per token with it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without the cache each token&apos;s latency climbed faster (%1): every step ran all %2 earlier tokens again (%3 recomputed in all).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without the cache the latency did not climb faster than with it (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total time %1: the cache saved the recomputation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total time %1: without the cache it was faster here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total time about the same: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The follow-up reused %1 of its %2 prompt tokens from the prefix cache (the report and the first answer).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The follow-up reused none of its %1 prompt tokens: no prefix cache hit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, prefilling %1 tokens instead of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same request again reused %1 of %2 prompt tokens (TTFT %3); with a timestamp in the system prompt %4 of %5 (TTFT %6)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A changed first block breaks reuse: %1. Keep what changes at the end of the prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The timestamp did not reduce reuse here: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With %1 requests at once the longest queue time was %2 (alone: %3): the ones beyond the engine&apos;s parallel slots waited.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With %1 requests at once no request waited longer than alone (queue %2, alone %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Together they held %1 of KV at their peaks, %2× one request alone (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 per token (%2 of f16), peak %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q8_0 held about half the KV memory: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>q8_0 did not halve the KV memory here: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The greedy answer was the same, token for token (%1 tokens).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The greedy answer changed at %1 of %2 token positions, first at token %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at %1 tokens held (window %2) the engine held %3; every layer for every token would be %4 (%1 × %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run stayed inside the window, so no cap can show: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local layers capped their KV: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The engine does not cap the local layers&apos; KV yet: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model emitted no &lt;think&gt; block: 0 of %1 tokens were hidden, TTFT %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All %1 tokens were hidden reasoning: TTFT %2, and no visible token within the limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 tokens were hidden reasoning: TTFT %3, but the first visible token came at %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>latency, ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT, ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answer tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decode time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prompt tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time per output token × 10</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queue, ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV peak, bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>remote %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the local layers&apos; KV against the global layers&apos; KV as the tokens grow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole report on a sliding-window model (Gemma 3; a base model gets the report and the task as one text to continue), at most %1 new tokens. Watch the local layers&apos; KV flatten at the window while the global layers&apos; KV keeps rising.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs a model that thinks before it answers, in &lt;think&gt;…&lt;/think&gt; (Qwen3, DeepSeek-R1 distills) or in an analysis channel (gpt-oss); %1 has neither</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at %1 tokens held the local layers held %2 (%3 tokens each, window %4) and the global layers %5 (%1 tokens each); every layer for every token would be %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run stayed inside the window, so the local layers&apos; KV has not flattened yet: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local layers capped their KV at the window while the global layers&apos; KV kept growing: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local layers did not cap their KV: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV, MiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>global layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local: %1 layers, %2 B per token, at most %3 tokens; global: %4 layers, %5 B per token, every token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decode %1 for %2 tokens: %3 ms per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT %1 at %2 prompt tokens: %3 ms per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TTFT %1, first visible token %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>local %1 = %2 tokens × %3 B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--draft needs a number of draft tokens per step from 0 (off) to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the same answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a different answer (sampling)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without drafts: decode %1, time per token %2; %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding: %1 of %2 draft tokens accepted, %3 tokens per step; decode %4; %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>drafts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no drafts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decoding: one token per step, then up to %1 tokens guessed from the report and checked in one pass</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the draft tokens accepted, tokens per step, the decode speed; the answer stays the same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A question whose answer repeats the report (&quot;%1&quot;), greedy, at most %2 new tokens: decoded one token per step, then with drafts looked up in the report. Watch the latency: an accepted draft token comes with the step before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs the local engine: a server decodes by its own rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No draft was checked: nothing the model wrote had occurred in the prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 draft tokens were accepted: %3 tokens per checking step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode %1: fewer steps for the same tokens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode %1: checking the drafts cost more than the accepted ones saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decode about the same: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer was the same, token for token (%1 tokens).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer changed at %1 of %2 token positions, first at token %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speculative decoding runs on the local engine only: the server decoded as it does (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 × %1 attention layers × %2 KV heads × %3 dims × %4 = %5 B per token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>convolutions: %1 layers, %2 B per token, the last %3 tokens; attention: %4 layers, %5 B per token, every token</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>kvlens::ui::i18n</name>
    <message>
        <source>the prompt of %1 tokens does not fit the context of %2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none of the %1 pages has a text layer: scanned?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the page has no text layer: scanned?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no text layer on page(s) %1: scanned?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running headers and footers left out: %1 and more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running headers and footers left out: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV pool full: %1 tokens need %2 more blocks, %3 available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KV pool full: a static reservation of %1 tokens needs %2 blocks, %3 available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>out of memory while allocating the KV cache (%1 MiB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a regular file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is empty, not a GGUF file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a GGUF file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is too short to be a GGUF file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: unsupported GGUF version %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the prompt is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the maximum of new tokens must be positive (got %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the engine reports: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU: %1 threads, %2 kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU: %1 threads, %2 kernels + AMX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(CUDA not used: %1; running on the CPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no NVIDIA driver found (libcuda is not installed or not loadable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no CUDA device found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the NVIDIA driver supports CUDA %1, older than this build&apos;s runtime %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this build has no CUDA backend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of weights and a %2 KV pool do not fit in the %3 free of %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA not used: %1; running on the CPU</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

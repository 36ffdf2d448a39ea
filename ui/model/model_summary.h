// SPDX-License-Identifier: Apache-2.0
// What the model panel shows about a loaded model, as Qt values: the shape
// (layers, heads, KV heads, head dimension), sizes, tensor types and the KV
// bytes per token with its formula written out.
#pragma once

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>

namespace kvlens {
struct model_info;
}

namespace kvlens::ui {

struct ModelSummary {
    QString path;
    QString name;
    QString architecture;
    QString fileType;           // "Q4_1"
    QString chatTemplate;       // "chatml", ...
    QString backend;            // the engine's own description, e.g. "cpu (2 threads, AVX2)"
    int nLayer = 0;
    int nHead = 0;
    int nHeadKv = 0;
    int headDim = 0;
    int nEmbd = 0;
    int nFf = 0;
    // A mixture of experts (model_info): 0 for a dense model.
    int nFileParts = 1;   // a model in parts: how many (modelFile: the first)
    QString modelFile;    // the file the engine read the metadata from (path: the one asked for)
    int nExpert = 0;
    int nExpertUsed = 0;
    int nFfExp = 0;
    int nFfShared = 0;
    int nDenseLead = 0;           // LFM2-MoE: dense layers before the first experts
    bool expertSigmoid = false;   // experts chosen by sigmoid plus a bias, not a softmax
    bool expertSoftmaxBias = false;   // ERNIE 4.5: chosen by the softmax plus a bias, weighted by the softmax
    bool expertSoftmaxChosen = false;  // gpt-oss: weights the softmax of the chosen logits; biased experts
    bool attnSinks = false;       // gpt-oss: a learned sink logit per head
    qint64 nParamsActive = 0;
    int nCtxTrain = 0;
    int nVocab = 0;
    int contextLength = 0;      // n_ctx per sequence the engine runs with, tokens
    int slidingWindow = 0;      // tokens; 0: all layers full attention
    qint64 nParams = 0;
    qint64 weightBytes = 0;     // bytes of the tensors as stored
    qint64 kvBytesPerTokenF16 = 0;
    qint64 kvBytesPerTokenQ8 = 0;
    bool kvQ8Possible = true;   // false: heads of a size q8_0's blocks of 32 do not divide (Phi-2's 80)
    // The KV cache's layer groups (engine::layer_groups): sliding-window
    // (local) layers cap their KV at the window, global layers keep every
    // token. nLocalLayers 0: every layer global. Bytes per token in the
    // engine's KV dtype.
    int nLocalLayers = 0;
    int nGlobalLayers = 0;
    // LFM2: the local layers are short convolutions (model_info): their f32
    // B*X rows kept for convTaps tokens, not a window of K/V.
    bool localIsConv = false;
    int nConvLayers = 0;
    int convTaps = 0;
    qint64 convStateBytes = 0;   // of one sequence however long
    qint64 localKvBytesPerToken = 0;
    qint64 globalKvBytesPerToken = 0;
    // How we know the model may think in <think>…</think> first (engine::hidden_reasoning):
    // "vocabulary" (both tags are tokens), "chat_template" (the template writes them), "" no sign of it.
    QString hiddenReasoning;
    // RoPE of the full-attention layers (model_info): base, Llama 3.1's
    // per-pair frequency factors, a linear scaling factor (1: none), phi3's
    // LongRoPE factors (short up to ropeOriginalCtx tokens of context, long
    // beyond) and the attention factor on cos and sin (1: none).
    double ropeBase = 0;          // 0: no RoPE (GPT-2's learned positions, or a server's model)
    bool learnedPositions = false;   // GPT-2: a learned row per position, nCtxTrain of them
    int ropeDims = 0;                // dimensions RoPE turns per head (fewer than headDim: Pythia, GLM-4)
    bool ropeLlama3Factors = false;
    double ropeLinearFactor = 1;
    bool ropeLongRopeFactors = false;
    double attnSoftcap = 0;    // Gemma's soft-capping of the attention scores and logits (0: none)
    double finalSoftcap = 0;
    int ropeOriginalCtx = 0;
    double ropeAttnFactor = 1;
    double ropeYarnFactor = 0;   // YaRN's factor from ropeOriginalCtx tokens (0: none)
    double ropeYarnLogMul = 0;   // Ministral 3: YaRN's magnitude set by this log multiplier (0: YaRN's own)
    double ropeMagnitude = 1;    // with it: cos and sin times this in all
    bool ropePlainInWindows = false;   // OLMo 3: windowed layers rotate without the scaling
    double attnTempScale = 0;    // Ministral 3: queries x (1 + this ln(floor(pos / attnTempFloor) + 1)); 0: none
    int attnTempFloor = 0;
    int nWindowLayers = 0;       // layers with a sliding window
    // Where the RMS norms are (kvlens::model_info): before each block, after
    // it, and on Q and K (0 none, 1 per head, 2 over the whole rows).
    bool preNorms = true;
    bool postNorms = false;
    // Cohere's: LayerNorms, and one norm per layer that attention and the
    // feed-forward block read side by side.
    bool layerNorm = false;
    bool normBias = false;   // GPT-2's LayerNorms add a bias
    bool sharedBlockNorm = false;   // Cohere: parallel blocks read one norm (GPT-NeoX: a norm each)
    bool parallelBlocks = false;
    int qkNorm = 0;
    QList<int> unrotatedLayers;   // layers (from 0) RoPE leaves out: SmolLM3's NoPE layers
    // Scales besides llama's: embeddings (Gemma, Granite), scores set by the
    // file (Granite; 0: 1/sqrt(headDim)), block outputs, the logits' divisor (Granite).
    double embeddingScale = 1;
    double attentionScale = 0;
    double residualScale = 1;
    double logitScale = 1;
    double logitMul = 1;   // Cohere: the logits times this
    // The file carries no chat template (a base model): runs send a
    // completion-style prompt (ui/model/prompt_builder.h: completionPrompt).
    bool baseModel = false;
    qint64 kvPoolBytes = 0;     // the engine's KV pool, bytes
    qint64 scratchBytes = 0;    // the engine's work buffers, bytes
    QString kvDtype = QStringLiteral("f16");   // the dtype the engine stores KV in
    QMap<QString, int> tensorTypes;            // "Q4_1" -> tensor count
    bool remote = false;        // a remote server's model: its shape is unknown (0), its name is the server's
    QString backendFallback;    // why the CUDA backend asked for does not run and the CPU does ("" if it runs)

    bool isValid() const { return nLayer > 0 || (remote && !name.isEmpty()); }
    qint64 kvBytesPerToken() const { return kvDtype == QLatin1String("q8_0") ? kvBytesPerTokenQ8 : kvBytesPerTokenF16; }
    // "2 × 30 layers × 3 KV heads × 64 dims × 2 B = 23,040 B per token"
    QString kvFormula() const;
    // "15 local layers × 1,024 B × at most 512 tokens + 3 global layers × 1,024 B × every token"
    // ("" without local layers).
    QString kvGroupFormula() const;
    // Fills the shape and sizes from the engine's model_info.
    static ModelSummary fromInfo(const kvlens::model_info& info);
};

}  // namespace kvlens::ui

Q_DECLARE_METATYPE(kvlens::ui::ModelSummary)

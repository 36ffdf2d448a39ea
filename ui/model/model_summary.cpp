// SPDX-License-Identifier: Apache-2.0
// ModelSummary: from model_info, and the KV formula text.
#include "ui/model/model_summary.h"

#include <QCoreApplication>
#include <QLocale>

#include "engine/model/model_info.h"

namespace kvlens::ui {

namespace {
QString fromStd(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
}

QString ModelSummary::kvFormula() const
{
    const QLocale loc;
    const bool q8 = kvDtype == QLatin1String("q8_0");
    // q8_0 stores 32 values in 34 bytes: 1.0625 B per value.
    const QString bytesPer = q8 ? QStringLiteral("34/32 B") : QStringLiteral("2 B");
    if (nConvLayers > 0)   // LFM2: K and V in the attention layers only
        return QCoreApplication::translate("kvlens::ui",
                                           "2 × %1 attention layers × %2 KV heads × %3 dims × %4 = %5 B per token")
            .arg(nLayer - nConvLayers)
            .arg(nHeadKv)
            .arg(headDim)
            .arg(bytesPer, loc.toString(kvBytesPerToken()));
    return QCoreApplication::translate("kvlens::ui",
                                       "2 × %1 layers × %2 KV heads × %3 dims × %4 = %5 B per token")
        .arg(nLayer)
        .arg(nHeadKv)
        .arg(headDim)
        .arg(bytesPer, loc.toString(kvBytesPerToken()));
}

QString ModelSummary::kvGroupFormula() const
{
    const QLocale loc;
    if (localIsConv && nLocalLayers > 0)
        return QCoreApplication::translate("kvlens::ui",
                                           "convolutions: %1 layers, %2 B per token, the last %3 tokens; "
                                           "attention: %4 layers, %5 B per token, every token")
            .arg(nLocalLayers)
            .arg(loc.toString(localKvBytesPerToken))
            .arg(loc.toString(convTaps))
            .arg(nGlobalLayers)
            .arg(loc.toString(globalKvBytesPerToken));
    if (nLocalLayers <= 0 || slidingWindow <= 0)
        return {};
    return QCoreApplication::translate("kvlens::ui",
                                       "local: %1 layers, %2 B per token, at most %3 tokens; "
                                       "global: %4 layers, %5 B per token, every token")
        .arg(nLocalLayers)
        .arg(loc.toString(localKvBytesPerToken))
        .arg(loc.toString(slidingWindow))
        .arg(nGlobalLayers)
        .arg(loc.toString(globalKvBytesPerToken));
}

ModelSummary ModelSummary::fromInfo(const kvlens::model_info& info)
{
    ModelSummary s;
    s.path = fromStd(info.path);
    s.modelFile = s.path;   // a model in parts: its first, whichever part was opened
    s.name = fromStd(info.name);
    s.architecture = fromStd(info.architecture);
    s.fileType = fromStd(info.file_type);
    s.chatTemplate = fromStd(info.chat_template_kind);
    s.ropeBase = info.rope_freq_base;
    s.learnedPositions = info.learned_positions;
    s.ropeDims = info.rope_dims;
    s.ropeLlama3Factors = info.rope_llama3_factors;
    s.ropeLinearFactor = info.rope_linear_factor;
    s.ropeLongRopeFactors = info.rope_longrope_factors;
    s.attnSoftcap = info.attn_softcap;
    s.finalSoftcap = info.final_softcap;
    s.ropeOriginalCtx = info.rope_original_ctx;
    s.ropeAttnFactor = info.rope_attn_factor;
    s.ropeYarnFactor = info.rope_yarn_factor;
    s.ropeYarnLogMul = info.rope_yarn_log_mul;
    s.ropeMagnitude = info.rope_magnitude;
    s.ropePlainInWindows = info.rope_plain_in_windows;
    s.attnTempScale = info.attn_temp_scale;
    s.attnTempFloor = info.attn_temp_floor;
    s.nWindowLayers = info.n_window_layers;
    s.preNorms = info.pre_norms;
    s.postNorms = info.post_norms;
    s.layerNorm = info.layer_norm;
    s.normBias = info.norm_bias;
    s.sharedBlockNorm = info.shared_block_norm;
    s.parallelBlocks = info.parallel_blocks;
    s.qkNorm = static_cast<int>(info.qk_norm);
    for (const int il : info.unrotated_layers)
        s.unrotatedLayers << il;
    s.embeddingScale = info.embedding_scale;
    s.attentionScale = info.attention_scale;
    s.residualScale = info.residual_scale;
    s.logitScale = info.logit_scale;
    s.logitMul = info.logit_mul;
    s.nLayer = info.n_layer;
    s.nHead = info.n_head;
    s.nHeadKv = info.n_head_kv;
    s.headDim = info.head_dim;
    s.nEmbd = info.n_embd;
    s.nFf = info.n_ff;
    s.nFileParts = info.n_file_parts;
    s.nExpert = info.n_expert;
    s.nExpertUsed = info.n_expert_used;
    s.nFfExp = info.n_ff_exp;
    s.nFfShared = info.n_ff_shared;
    s.nDenseLead = info.n_dense_lead;
    s.expertSigmoid = info.expert_sigmoid;
    s.expertSoftmaxChosen = info.expert_softmax_chosen;
    s.expertSoftmaxBias = info.expert_softmax_bias;
    s.attnSinks = info.attn_sinks;
    s.nParamsActive = info.n_params_active;
    s.nCtxTrain = info.n_ctx_train;
    s.nVocab = info.n_vocab;
    s.slidingWindow = info.sliding_window;
    s.nConvLayers = info.n_conv_layers;
    s.convTaps = info.conv_taps;
    s.convStateBytes = info.conv_state_bytes;
    s.nParams = info.n_params;
    s.weightBytes = info.weight_bytes;
    s.kvBytesPerTokenF16 = info.kv_bytes_per_token_f16;
    s.kvBytesPerTokenQ8 = info.kv_bytes_per_token_q8_0;
    s.kvQ8Possible = info.kv_q8_0_possible;
    for (const auto& [type, count] : info.tensor_types)
        s.tensorTypes.insert(fromStd(type), count);
    return s;
}

}  // namespace kvlens::ui

// SPDX-License-Identifier: Apache-2.0
// Hidden reasoning as the token stream shows it: text between <think> and
// </think> is not the answer, whether a tag comes in one token or cut across
// several, and text that only looked like the start of a tag is the answer;
// in Harmony (gpt-oss) the answer is the final channel's content alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/runtime/hidden_reasoning.h"

using kvlens::hidden_reasoning;

namespace {

// The visibility of each piece fed in order.
std::vector<bool> visibility(const std::vector<std::string>& pieces) {
    hidden_reasoning h;
    std::vector<bool> out;
    for (const auto& p : pieces) out.push_back(h.push(p));
    return out;
}

}  // namespace

TEST(HiddenReasoning, TextWithoutTagsIsAllAnswer) {
    EXPECT_EQ(visibility({"The", " capital", " is", " Berlin."}), (std::vector<bool>{true, true, true, true}));
}

TEST(HiddenReasoning, WholeTagsHideWhatIsBetweenThem) {
    EXPECT_EQ(visibility({"<think>", "let me", " see", "</think>", "Berlin"}),
              (std::vector<bool>{false, false, false, false, true}));
}

TEST(HiddenReasoning, ATagCutAcrossTokensIsFound) {
    // "<th" + "ink>" opens, "</" + "think" + ">" closes.
    EXPECT_EQ(visibility({"<th", "ink>", "hmm", "</", "think", ">", "\n\nBerlin"}),
              (std::vector<bool>{false, false, false, false, false, false, true}));
    hidden_reasoning h;
    h.push("<");
    h.push("think");
    EXPECT_FALSE(h.inside());   // "<think" is not yet a tag
    h.push(">");
    EXPECT_TRUE(h.inside());
    h.push("reasoning</thi");
    EXPECT_TRUE(h.inside());
    EXPECT_TRUE(h.push("nk>answer"));
    EXPECT_FALSE(h.inside());
}

TEST(HiddenReasoning, WhatOnlyLookedLikeATagIsAnswerShownByThePieceThatSettlesIt) {
    // "<th" could begin <think>; "e cat" shows it was text: the second piece carries it.
    EXPECT_EQ(visibility({"<th", "e cat>"}), (std::vector<bool>{false, true}));
    EXPECT_EQ(visibility({"a < b"}), (std::vector<bool>{true}));
}

TEST(HiddenReasoning, AnswerAroundReasoningInOnePieceIsVisible) {
    hidden_reasoning h;
    EXPECT_TRUE(h.push("Hi<think>x</think>"));   // "Hi" is answer text
    EXPECT_FALSE(h.inside());
    EXPECT_FALSE(h.push("<think>only reasoning</think>"));
    EXPECT_TRUE(h.push("<think>r</think>done"));
}

// A prompt that opened <think> itself (DeepSeek-R1's revised template): the
// model's first tokens are reasoning, hidden until </think>.
TEST(HiddenReasoning, AfterAPromptThatOpenedItTheFirstTokensAreReasoning) {
    hidden_reasoning h;
    h.open();
    EXPECT_TRUE(h.inside());
    EXPECT_FALSE(h.push("Okay, the user"));
    EXPECT_FALSE(h.push(" asks</think>"));
    EXPECT_TRUE(h.push("\n\nBerlin."));
    EXPECT_FALSE(h.inside());
}

// Whether a model may think first: both tags in the vocabulary, or in the
// chat template; one tag alone is no sign.
TEST(HiddenReasoning, AModelThinksWhenBothTagsAreTokensOrItsTemplateWritesThem) {
    using kvlens::reasoning_evidence;
    using kvlens::reasoning_evidence_of;
    EXPECT_EQ(reasoning_evidence_of(true, true, ""), reasoning_evidence::vocabulary);
    EXPECT_EQ(reasoning_evidence_of(true, false, ""), reasoning_evidence::none);
    EXPECT_EQ(reasoning_evidence_of(false, false, "{{'<think>\\n' + reasoning + '</think>'}}"),
              reasoning_evidence::chat_template);
    EXPECT_EQ(reasoning_evidence_of(false, false, "{{ '<|im_start|>assistant' }}"), reasoning_evidence::none);
    EXPECT_EQ(reasoning_evidence_of(false, false, "<think> only opens"), reasoning_evidence::none);
    EXPECT_STREQ(kvlens::to_string(reasoning_evidence::chat_template), "chat_template");
}

// Harmony (gpt-oss): after a prompt ending in "<|start|>assistant" the model
// writes message headers, its analysis channel, then its final one; only the
// final channel's content is the answer, whatever pieces the text comes in.
namespace {

std::vector<bool> harmony_visibility(const std::vector<std::string>& pieces) {
    hidden_reasoning h;
    h.use(hidden_reasoning::syntax::harmony_channels);
    std::vector<bool> out;
    for (const auto& p : pieces) out.push_back(h.push(p));
    return out;
}

}  // namespace

TEST(HiddenReasoning, HarmonyShowsOnlyTheFinalChannelsContent) {
    EXPECT_EQ(harmony_visibility({"<|channel|>", "analysis", "<|message|>", "User", " asks", "<|end|>", "<|start|>",
                                  "assistant", "<|channel|>", "final", "<|message|>", "Berlin", ".", "<|return|>"}),
              (std::vector<bool>{false, false, false, false, false, false, false, false, false, false, false, true,
                                 true, false}));
}

TEST(HiddenReasoning, HarmonyMarkersCutAcrossPiecesAreFound) {
    // Every cut of the stream into single characters: the visible characters are the answer's.
    const std::string stream =
        "<|channel|>analysis<|message|>Think <|end|> first.<|end|><|start|>assistant<|channel|>final<|message|>"
        "Berlin.<|return|>";
    hidden_reasoning h;
    h.use(hidden_reasoning::syntax::harmony_channels);
    std::string shown;
    for (char c : stream)
        if (h.push(std::string(1, c))) shown += c;
    // A character held as the start of a marker ("<" of "<|return|>") is settled by a later piece, never shown.
    EXPECT_EQ(shown, "Berlin.");
    EXPECT_TRUE(h.inside()) << "after <|return|>, back in a header";
}

TEST(HiddenReasoning, HarmonyMessageWithoutAChannelIsTheAnswer) {
    EXPECT_EQ(harmony_visibility({"<|message|>", "Hi", "<|end|>"}), (std::vector<bool>{false, true, false}));
    EXPECT_EQ(harmony_visibility({"<|channel|>commentary to=functions.x <|constrain|>json", "<|message|>", "{}"}),
              (std::vector<bool>{false, false, false}));
}

// SPDX-License-Identifier: Apache-2.0
// Models in parts (gguf_split.h), as llama.cpp's gguf-split writes them: a
// split model opens from any of its parts and is the same model, tensor for
// tensor and logit for logit, as the whole file; a missing, misplaced or
// mislabelled part, or a tensor in two parts, is refused with the part named.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/gguf/gguf_split.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/model/synth_model.h"
#include "tests/support/reference_runner.h"
#include "tests/support/temp_dir.h"
#include "tests/support/text_checks.h"

using namespace kvlens;
using kvlens::test::contains;
namespace fs = std::filesystem;

namespace {

// check-llama in F16 written whole at dir/whole.gguf and as n parts dir/model-0000i-of-0000n.gguf.
std::vector<std::string> whole_and_parts(const fs::path& dir, int n) {
    const std::string whole = (dir / "whole.gguf").string();
    EXPECT_TRUE(write_synth_model(*synth_shape_named("check-llama"), ggml_type::f16, whole, 1).ok());
    auto f = gguf_file::open(whole);
    EXPECT_TRUE(f.ok()) << f.message();
    std::vector<std::string> paths;
    const status st = write_split_gguf(**f, n, (dir / "model").string(), &paths);
    EXPECT_TRUE(st.ok()) << st.message();
    return paths;
}

// A second part of two at path holding `tensor` alone, or no tensor (nullptr).
void write_second_of_two(const std::string& path, const gguf_tensor* tensor) {
    gguf_writer w;
    w.set_u16("split.no", 1);
    w.set_u16("split.count", 2);
    if (tensor)
        w.add_tensor(tensor->name, tensor->type, std::vector<std::int64_t>(tensor->ne, tensor->ne + tensor->n_dims),
                     std::vector<std::uint8_t>(tensor->data, tensor->data + tensor->n_bytes));
    ASSERT_TRUE(w.write_file(path).ok());
}

}  // namespace

TEST(GgufSplit, partNamesAreReadAndWrittenAsLlamaCppNamesThem)
{
    EXPECT_EQ(split_part_path("/m/Qwen3-30B-Q8_0", 2, 3), "/m/Qwen3-30B-Q8_0-00002-of-00003.gguf");
    const auto s = parse_split_name("/m/Qwen3-30B-Q8_0-00002-of-00003.gguf");
    ASSERT_TRUE(s.has_value());
    EXPECT_EQ(s->prefix, "/m/Qwen3-30B-Q8_0");
    EXPECT_EQ(s->no, 2);
    EXPECT_EQ(s->count, 3);
    for (const char* not_a_part : {"model.gguf", "m-00001-of-00003.bin", "m-0001-of-00003.gguf", "m-00004-of-00003.gguf",
                                   "m-00000-of-00003.gguf", "m-00001-of-0000x.gguf", "-00001-of-00002.gguf"})
        EXPECT_FALSE(parse_split_name(not_a_part).has_value()) << not_a_part;
}

TEST(GgufSplit, aModelInPartsOpensFromAnyPartAsTheWholeFile)
{
    test::temp_dir d;
    const auto parts = whole_and_parts(d.path, 3);
    ASSERT_EQ(parts.size(), 3u);
    auto whole = gguf_file::open((d.path / "whole.gguf").string());
    ASSERT_TRUE(whole.ok()) << whole.message();
    for (const std::string& path : parts) {
        auto f = gguf_file::open(path);
        ASSERT_TRUE(f.ok()) << f.message();
        EXPECT_EQ((*f)->n_parts(), 3);
        EXPECT_EQ((*f)->path(), parts[0]) << "opened from its first part";
        EXPECT_EQ((*f)->get_string("general.architecture"), "llama");
        ASSERT_EQ((*f)->tensors().size(), (*whole)->tensors().size());
        for (const gguf_tensor& t : (*whole)->tensors()) {
            const gguf_tensor* s = (*f)->tensor(t.name);
            ASSERT_NE(s, nullptr) << t.name;
            ASSERT_EQ(s->n_bytes, t.n_bytes);
            EXPECT_EQ(std::memcmp(s->data, t.data, static_cast<std::size_t>(t.n_bytes)), 0) << t.name;
        }
    }
}

TEST(GgufSplit, aModelInPartsGivesTheWholeFilesLogits)
{
    test::temp_dir d;
    const auto parts = whole_and_parts(d.path, 4);
    const std::vector<std::int32_t> prompt{5, 17, 42, 99, 7, 3};
    std::vector<float> logits[2];
    const std::string paths[2] = {(d.path / "whole.gguf").string(), parts[1]};
    for (int i = 0; i < 2; ++i) {
        test::reference_runner r;
        ASSERT_TRUE(r.open(paths[i], 16).ok()) << paths[i];
        ASSERT_TRUE(r.feed(prompt, 0).ok());
        logits[i] = r.logits;
    }
    ASSERT_FALSE(logits[0].empty());
    EXPECT_EQ(logits[0], logits[1]);
}

TEST(GgufSplit, aMissingPartIsNamed)
{
    test::temp_dir d;
    const auto parts = whole_and_parts(d.path, 3);
    fs::remove(parts[2]);
    auto f = gguf_file::open(parts[0]);
    ASSERT_FALSE(f.ok());
    EXPECT_TRUE(contains(f.message(), "part 3 of 3")) << f.message();
    EXPECT_TRUE(contains(f.message(), "model-00003-of-00003.gguf")) << f.message();
}

TEST(GgufSplit, aFirstPartRenamedCannotFindTheOthersAndSaysSo)
{
    test::temp_dir d;
    const auto parts = whole_and_parts(d.path, 2);
    const std::string renamed = (d.path / "model.gguf").string();
    fs::rename(parts[0], renamed);
    auto f = gguf_file::open(renamed);
    ASSERT_FALSE(f.ok());
    EXPECT_TRUE(contains(f.message(), "is part 1 of 2 of a split model, but its name does not end in -00001-of-00002.gguf"))
        << f.message();
}

TEST(GgufSplit, aPartInTheWrongPlaceOrOfAnotherCountIsRefused)
{
    test::temp_dir d;
    const auto parts = whole_and_parts(d.path, 3);
    // Parts 2 and 3 swapped: each says another number than its name.
    const std::string tmp = (d.path / "tmp").string();
    fs::rename(parts[1], tmp);
    fs::rename(parts[2], parts[1]);
    fs::rename(tmp, parts[2]);
    auto f = gguf_file::open(parts[0]);
    ASSERT_FALSE(f.ok());
    EXPECT_TRUE(contains(f.message(), "should be part 2 of 3 but says it is part 3 of 3")) << f.message();
}

TEST(GgufSplit, aTensorInTwoPartsIsRefused)
{
    test::temp_dir d;
    const auto parts = whole_and_parts(d.path, 2);
    auto first = gguf_file::open(parts[0]);
    ASSERT_TRUE(first.ok());
    // Part 2 rewritten with the first part's first tensor in it as well.
    write_second_of_two(parts[1], &(*first)->tensors().front());
    auto f = gguf_file::open(parts[0]);
    ASSERT_FALSE(f.ok());
    EXPECT_TRUE(contains(f.message(), "is in two parts")) << f.message();
}

TEST(GgufSplit, aTensorCountThePartsDoNotHoldIsRefused)
{
    test::temp_dir d;
    const auto parts = whole_and_parts(d.path, 2);
    write_second_of_two(parts[1], nullptr);   // a second part without tensors
    auto f = gguf_file::open(parts[0]);
    ASSERT_FALSE(f.ok());
    EXPECT_TRUE(contains(f.message(), "split.tensors.count says")) << f.message();
}

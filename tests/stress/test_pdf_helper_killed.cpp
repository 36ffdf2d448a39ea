// SPDX-License-Identifier: Apache-2.0
// The PDF helper killed at random moments (issue 15, stress): while it reads
// the 117-page thesis or renders pages, another thread SIGKILLs it after a
// random delay. Each call then either finished before the kill or fails with
// "helper_crashed" and a message that says the helper stopped; never a hang,
// a crash of the caller or a half-read document. The next read, with a new
// helper, works.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>

#include "pdf/page_render.h"
#include "pdf/reader_process.h"

using namespace kvlens;
namespace fs = std::filesystem;

namespace {

const fs::path thesis = "../shared/testdata/pdfs/sample-files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf";
const fs::path refcard = "../shared/testdata/pdfs/debian-refcard-en.pdf";

// SIGKILLs this process's children that run the helper; how many it hit.
int kill_helpers() {
    int killed = 0;
    const pid_t self = getpid();
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
        const auto open = line.find('('), close = line.rfind(')');
        if (open == std::string::npos || close == std::string::npos) continue;
        const std::string comm = line.substr(open + 1, close - open - 1);
        std::istringstream rest(line.substr(close + 2));
        char state = 0;
        pid_t ppid = 0;
        rest >> state >> ppid;
        if (ppid == self && std::string(pdf::helper_name).rfind(comm, 0) == 0 && !comm.empty()) {
            if (::kill(static_cast<pid_t>(std::stoi(name)), SIGKILL) == 0) ++killed;
        }
    }
    return killed;
}

}  // namespace

TEST(PdfHelperKilled, atRandomMomentsEachReadFinishesOrSaysTheHelperStoppedAndTheNextReadWorks) {
    ASSERT_TRUE(fs::exists(thesis)) << "run from the project root with ../shared beside it";
    std::mt19937 rng(15);
    int crashed = 0, finished = 0;
    for (int round = 0; round < 24; ++round) {
        SCOPED_TRACE(round);
        const auto delay = std::chrono::milliseconds(rng() % 400);
        const bool render = round % 3 == 2;
        std::atomic<bool> running{true};
        std::thread killer([&] {
            const auto until = std::chrono::steady_clock::now() + delay;
            while (running.load() && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (running.load()) kill_helpers();
        });
        pdf::failure_kind why{};
        bool ok = false;
        std::string message;
        if (render) {
            pdf::render_options ro;
            ro.helper_path = KVLENS_PDF_HELPER_PATH;
            auto pages = pdf::render_pages(thesis, pdf::page_range{1, 12}, 96, ro, &why);
            ok = pages.ok();
            if (ok) EXPECT_EQ(pages->size(), 12u);
            else message = pages.message();
        } else {
            pdf::read_options opt;
            opt.helper_path = KVLENS_PDF_HELPER_PATH;
            auto doc = pdf::read_document(thesis, opt, &why);
            ok = doc.ok();
            if (ok) EXPECT_EQ(doc->pages.size(), 117u);   // a finished read is a whole read
            else message = doc.message();
        }
        running = false;
        killer.join();
        if (ok) {
            ++finished;
        } else {
            ++crashed;
            EXPECT_EQ(why, pdf::failure_kind::helper_crashed) << message;
            EXPECT_NE(message.find("helper"), std::string::npos) << message;
        }
        // A new helper reads the next file as if nothing had happened.
        pdf::read_options next;
        next.helper_path = KVLENS_PDF_HELPER_PATH;
        auto after = pdf::read_document(refcard, next);
        ASSERT_TRUE(after.ok()) << after.message();
        EXPECT_FALSE(after->pages.empty());
    }
    std::printf("%d reads killed, %d finished before the kill\n", crashed, finished);
    EXPECT_GE(crashed, 6);   // the kills really landed mid-read
}

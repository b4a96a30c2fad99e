// Faults cost nothing (core/lab/child_process.h, lab_child.h): the job runs in a child process
// with a time limit. Fake children stand in for the GPU runner here: one sleeps past the limit,
// one crashes, one reports a fault, and the parent reports each clearly and carries on.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/lab/child_process.h"
#include "core/lab/edit_store.h"
#include "core/lab/lab_child.h"

namespace sml::lab {
namespace {

namespace fs = std::filesystem;

class Scripts {
  public:
    Scripts() {
        std::string t = (fs::temp_directory_path() / "sml-lab-child-XXXXXX").string();
        dir_ = ::mkdtemp(t.data());
    }
    ~Scripts() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    // An executable shell script; its arguments are those `softmaxlab-cli` would get:
    // $1 lab  $2 run  $3 --job  $4 JOB  $5 --out  $6 RESULT.
    std::string make(const std::string& name, const std::string& body) {
        const std::string p = dir_ + "/" + name;
        std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
        ::chmod(p.c_str(), 0755);
        return p;
    }
    const std::string& dir() const { return dir_; }

  private:
    std::string dir_;
};

LabJob a_job() {
    return make_job("warp", "kernels/warp_softmax.cu", "// an edit\n");
}

TEST(LabChildProcess, SleeperIsStoppedAtTheLimit) {
    const auto t0 = std::chrono::steady_clock::now();
    ChildOptions o;
    o.time_limit_s = 0.5;
    const ChildOutcome c = run_child({"/bin/sleep", "30"}, o);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(c.kind, ChildOutcome::Kind::timed_out);
    EXPECT_LT(s, 5.0);
    EXPECT_NE(c.describe().find("time limit"), std::string::npos);
}

TEST(LabChildProcess, CrashIsASignalAndOutputIsKept) {
    ChildOptions o;
    o.time_limit_s = 10;
    ChildOutcome c = run_child({"/bin/sh", "-c", "echo before the crash; kill -SEGV $$"}, o);
    EXPECT_EQ(c.kind, ChildOutcome::Kind::signaled);
    EXPECT_EQ(c.signal, SIGSEGV);
    EXPECT_NE(c.output_tail.find("before the crash"), std::string::npos);
    c = run_child({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, o);
    EXPECT_EQ(c.kind, ChildOutcome::Kind::exited);
    EXPECT_EQ(c.exit_code, 3);
    EXPECT_NE(c.output_tail.find("err"), std::string::npos);
    c = run_child({"/no/such/program"}, o);
    EXPECT_TRUE(c.kind == ChildOutcome::Kind::spawn_failed ||
                (c.kind == ChildOutcome::Kind::exited && c.exit_code == 127));
}

TEST(LabChildJob, InfiniteLoopBecomesATimeoutAndTheEditSurvives) {
    Scripts s;
    EditStore store(s.dir() + "/edits");
    ASSERT_TRUE(store.save("warp", "// my edit\n"));
    ChildJobOptions o;
    o.cli = s.make("fake-cli-loops", "while true; do sleep 1; done");
    o.time_limit_s = 1;
    const LabResult r = run_job_in_child(a_job(), o);
    EXPECT_EQ(r.status, status::kTimeout);
    EXPECT_NE(r.message.find("did not finish"), std::string::npos);
    EXPECT_NE(r.hint.find("edit is saved"), std::string::npos);
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, "timeout");
    EXPECT_EQ(**store.load("warp"), "// my edit\n");
}

TEST(LabChildJob, CrashWithoutAResultIsReported) {
    Scripts s;
    ChildJobOptions o;
    o.cli = s.make("fake-cli-crashes", "echo 'runner: about to die' >&2; kill -ABRT $$");
    const LabResult r = run_job_in_child(a_job(), o);
    EXPECT_EQ(r.status, status::kCrashed);
    EXPECT_NE(r.message.find("signal 6"), std::string::npos);
    EXPECT_NE(r.hint.find("about to die"), std::string::npos);
    o.cli = s.make("fake-cli-exits", "exit 1");
    EXPECT_EQ(run_job_in_child(a_job(), o).status, status::kCrashed);
    o.cli = s.dir() + "/missing-cli";
    const LabResult m = run_job_in_child(a_job(), o);
    EXPECT_NE(m.status, status::kOk);
    EXPECT_FALSE(m.message.empty());
}

// The child reports a fault in its result; the parent asks a (fake) compute-sanitizer for the
// line, which it finds in the sanitizer's report.
TEST(LabChildJob, FaultIsLocatedByTheSanitizerPass) {
    Scripts s;
    LabResult fault;
    fault.status = status::kFault;
    fault.message = "the edited kernel faulted (illegal_address) in its warp launch";
    fault.fault = FaultInfo{"illegal_address", "warp", "_Zk", "", 0, ""};
    const std::string prepared = s.dir() + "/fault.json";
    ASSERT_TRUE(save_result(prepared, fault));
    ChildJobOptions o;
    o.cli = s.make("fake-cli-faults", "cp " + prepared + " \"$6\"; exit 1");
    o.sanitizer =
        s.make("fake-sanitizer",
               "echo '========= Invalid __global__ read of size 4 bytes'\n"
               "echo '=========     at sml::k(float*)+0x40 in kernels/warp_softmax.cu:77'\n"
               "exit 1");
    LabResult r = run_job_in_child(a_job(), o);
    EXPECT_EQ(r.status, status::kFault);
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->line, 77);
    EXPECT_EQ(r.fault->located_by, "compute-sanitizer");
    EXPECT_NE(r.message.find("warp_softmax.cu:77"), std::string::npos);
    // Without a sanitizer the result says the line is not known, and why.
    o.sanitizer = s.make("silent-sanitizer", "exit 0");
    r = run_job_in_child(a_job(), o);
    EXPECT_EQ(r.status, status::kFault);
    EXPECT_EQ(r.fault->line, 0);
    EXPECT_NE(r.notes["fault_line"].find("not located"), std::string::npos);
}

TEST(LabChildJob, AResultWrittenByTheChildIsReturned) {
    Scripts s;
    LabResult ok;
    ok.status = status::kOk;
    ok.message = "correct";
    const std::string prepared = s.dir() + "/ok.json";
    ASSERT_TRUE(save_result(prepared, ok));
    ChildJobOptions o;
    // The job file the parent wrote must be a valid job: the fake checks it is there.
    o.cli = s.make("fake-cli-ok", "test -s \"$4\" || exit 9; cp " + prepared + " \"$6\"");
    const LabResult r = run_job_in_child(a_job(), o);
    EXPECT_EQ(r.status, status::kOk) << r.message;
    EXPECT_EQ(r.message, "correct");
}

}  // namespace
}  // namespace sml::lab

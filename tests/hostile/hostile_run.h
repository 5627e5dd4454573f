// SPDX-License-Identifier: GPL-3.0-or-later
// The hostile-input suite's runner: `attrib` as a child process under a CPU-time limit (RLIMIT_CPU), an
// address-space cap (RLIMIT_AS) and a generous wall-clock limit (it catches blocking reads, while a loaded
// machine does not fail the suite), with its exit status, output, elapsed time and peak RSS.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <grp.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace attrib::tests {

/// Every hostile class must end within these (the acceptance: 30 s and 512 MB); the time is CPU time.
constexpr int HostileSeconds = 30;
constexpr std::size_t HostileBytes = 512ULL << 20;
/// Wall-clock limit: only a blocked process (no CPU used) gets near it; generous for a shared, loaded machine.
constexpr int WallSeconds = 400;

struct RunResult {
    int exitCode = -1;  ///< -1 when killed by a signal (see signal)
    int signal = 0;
    bool timedOut = false;
    double seconds = 0;
    long peakRssKb = 0;
    double cpuSeconds = 0;
    std::string out;
    std::string err;
    /// One line for test failure messages and the suite's figures.
    std::string summary() const
    {
        std::ostringstream s;
        s << "exit " << exitCode << " signal " << signal << (timedOut ? " TIMEOUT" : "") << " in " << seconds
          << " s (CPU " << cpuSeconds << " s), peak RSS " << peakRssKb / 1024 << " MiB; stderr: " << err.substr(0, 600);
        return s.str();
    }
};

inline std::string slurp(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Who the child runs as: the test's own user, or (when the test runs as root, for whom file permissions do
/// not apply) the unprivileged `nobody` (uid/gid 65534).
enum class RunAs { Self, Unprivileged };
/// The child's exit status when the program is not reachable by the unprivileged user.
constexpr int UnreachableExit = 125;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool UnderAddressSanitizer = true;
#else
constexpr bool UnderAddressSanitizer = false;
#endif

/// The child's environment. Under AddressSanitizer (`make asan`: the suite and `attrib` are instrumented) the
/// address-space cap cannot be used, since ASan reserves terabytes of address space for its shadow memory and
/// would not start; ASan's own RSS watchdog (hard_rss_limit_mb, a report that fails the run) bounds memory instead,
/// three times looser for shadow, redzones and quarantine, and the CPU limit is four times looser.
inline std::vector<std::string> sanitizerEnvironment(std::size_t bytes)
{
    std::vector<std::string> env;
    std::string asan;
    for (char** e = environ; *e; ++e) {
        if (std::string_view(*e).starts_with("ASAN_OPTIONS="))
            asan = std::string(*e).substr(13);
        else
            env.emplace_back(*e);
    }
    if (UnderAddressSanitizer)
        asan += (asan.empty() ? "" : ":") + std::string("hard_rss_limit_mb=") + std::to_string(3 * (bytes >> 20));
    if (!asan.empty())
        env.push_back("ASAN_OPTIONS=" + asan);
    return env;
}

/// Runs `program args...` with stdout/stderr captured in `scratch`, killed after `seconds`.
inline RunResult runLimited(const std::string& program, const std::vector<std::string>& args,
                            const std::filesystem::path& scratch, int seconds = HostileSeconds,
                            std::size_t bytes = HostileBytes, RunAs as = RunAs::Self)
{
    const auto outPath = scratch / "stdout.txt";
    const auto errPath = scratch / "stderr.txt";
    std::vector<std::string> env = sanitizerEnvironment(bytes);
    std::vector<char*> envp;
    envp.reserve(env.size() + 1);
    for (auto& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (!UnderAddressSanitizer) {
            const rlimit cap{bytes, bytes};
            ::setrlimit(RLIMIT_AS, &cap);
        }
        const auto cpuSeconds = static_cast<rlim_t>(UnderAddressSanitizer ? 4 * seconds : seconds);
        const rlimit cpu{cpuSeconds, cpuSeconds};
        ::setrlimit(RLIMIT_CPU, &cpu);
        const int out = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(out, 1);
        ::dup2(err, 2);
        if (as == RunAs::Unprivileged && ::geteuid() == 0 &&
            (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0))
            ::_exit(126);
        if (as == RunAs::Unprivileged && ::access(program.c_str(), X_OK) != 0)
            ::_exit(UnreachableExit);  // e.g. a checkout under a private home folder
        std::vector<char*> argv{const_cast<char*>(program.c_str())};
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execve(program.c_str(), argv.data(), envp.data());
        ::_exit(127);
    }
    RunResult r;
    int status = 0;
    rusage usage{};
    for (;;) {
        const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
        if (done == pid)
            break;
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(WallSeconds)) {
            ::kill(pid, SIGKILL);
            ::wait4(pid, &status, 0, &usage);
            r.timedOut = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.peakRssKb = usage.ru_maxrss;
    r.cpuSeconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
        static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    if (WIFEXITED(status))
        r.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    r.out = slurp(outPath);
    r.err = slurp(errPath);
    return r;
}

/// `attrib analyze BUNDLE [extra...]` under the suite's limits.
inline RunResult analyzeLimited(const std::filesystem::path& bundle, const std::filesystem::path& scratch,
                                const std::vector<std::string>& extra = {}, RunAs as = RunAs::Self)
{
    std::vector<std::string> args{"analyze", bundle.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return runLimited(ATTRIB_CLI, args, scratch, HostileSeconds, HostileBytes, as);
}

/// True when `text` holds a byte a terminal would act on (C0 except newline, DEL, or a C1 control / bidi
/// override in UTF-8).
inline bool hasRawControl(const std::string& text)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return true;
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        if (c == 0xc2 && next >= 0x80 && next <= 0x9f)
            return true;
        if (c == 0xe2 && next == 0x80 && i + 2 < text.size()) {
            const auto third = static_cast<unsigned char>(text[i + 2]);
            if (third >= 0xaa && third <= 0xae)
                return true;
        }
    }
    return false;
}

}  // namespace attrib::tests

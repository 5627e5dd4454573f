// SPDX-License-Identifier: GPL-3.0-or-later
// Two catalogs over a corpus of bundles; the verdicts that changed.
#include "engine/corpus_impact.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace attrib::engine {

std::size_t CorpusImpact::changedCount() const
{
    return static_cast<std::size_t>(
        std::count_if(bundles.begin(), bundles.end(), [](const BundleImpact& b) { return b.changed(); }));
}

namespace {

bool isArchive(const fs::path& p)
{
    const std::string name = p.filename().string();
    for (const char* ext : {".tar", ".tar.gz", ".tgz", ".zip"}) {
        const std::string e = ext;
        if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
            return true;
    }
    return false;
}

std::string describe(const AnalysisResult& r)
{
    std::string s = verdictLabel(r);
    // Appended piece by piece: `" " + std::to_string(...)` trips GCC 12's false -Wrestrict at -O3.
    if (r.verdict.rootCause) {
        s += ' ';
        s += r.verdict.rootCause->symptomId;
    } else if (!r.verdict.candidates.empty()) {
        s += ' ';
        s += std::to_string(r.verdict.candidates.size());
        s += " candidates";
    }
    return s;
}

std::string key(const Diagnostic& d)
{
    return d.where.file + "\n" + d.rule + "\n" + d.message;
}

}  // namespace

std::vector<std::string> listBundles(const std::string& dir)
{
    std::vector<std::string> out;
    std::error_code ec;
    if (fs::exists(fs::path(dir) / "expected.json", ec))
        return {dir};
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (it->is_directory(ec) && fs::exists(it->path() / "expected.json", ec)) {
            out.push_back(it->path().string());
            it.disable_recursion_pending();
        }
    }
    if (out.empty()) {
        for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
            if (it->is_directory(ec) || (it->is_regular_file(ec) && isArchive(it->path())))
                out.push_back(it->path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<Diagnostic> newDiagnostics(const Catalog& before, const Catalog& after)
{
    std::set<std::string> known;
    for (const auto& d : before.diagnostics())
        known.insert(key(d));
    std::vector<Diagnostic> out;
    for (const auto& d : after.diagnostics())
        if (!known.count(key(d)))
            out.push_back(d);
    return out;
}

CorpusImpact runCorpusImpact(const std::vector<std::string>& bundles, const CatalogPtr& baseline,
                             const CatalogPtr& candidate, const BundleAnalyzer& analyze, ProgressSink* progress,
                             const CancelFlag* cancel)
{
    CorpusImpact impact;
    impact.baselineDir = baseline->directory();
    impact.candidateDir = candidate->directory();
    impact.baselineHash = baseline->hash();
    impact.candidateHash = candidate->hash();
    for (const auto& d : newDiagnostics(*baseline, *candidate))
        impact.newProblems.push_back(d.str());
    for (std::size_t i = 0; i < bundles.size(); ++i) {
        if (cancel && cancel->load())
            break;
        if (progress)
            progress->progress(ProgressStage::Replay, i, bundles.size());
        BundleImpact b;
        b.bundle = bundles[i];
        b.name = fs::path(bundles[i]).filename().string();
        std::string errA, errB;
        const auto a = analyze(bundles[i], baseline, errA);
        const auto c = analyze(bundles[i], candidate, errB);
        b.baseline = a ? describe(*a) : "no result: " + errA;
        b.candidate = c ? describe(*c) : "no result: " + errB;
        if (a && c)
            b.diff = diffVerdicts(*a, *c);
        else if (static_cast<bool>(a) != static_cast<bool>(c) || errA != errB)
            b.error = a ? "new catalog: " + errB : "baseline: " + errA;
        impact.bundles.push_back(std::move(b));
    }
    if (progress)
        progress->progress(ProgressStage::Replay, bundles.size(), bundles.size());
    return impact;
}

std::string corpusImpactText(const CorpusImpact& impact, bool all)
{
    std::ostringstream out;
    out << "baseline " << impact.baselineDir << " (" << impact.baselineHash << ")\n"
        << "new      " << impact.candidateDir << " (" << impact.candidateHash << ")\n";
    for (const auto& p : impact.newProblems)
        out << "new catalog problem: " << p << "\n";
    out << "\n";
    for (const auto& b : impact.bundles) {
        if (!all && !b.changed())
            continue;
        out << (b.changed() ? "CHANGED " : "same    ") << b.name << "\n"
            << "    baseline: " << b.baseline << "\n"
            << "    new:      " << b.candidate << "\n";
        if (!b.error.empty())
            out << "    " << b.error << "\n";
        for (const auto& s : b.diff.symptoms)
            out << "    " << s.id << ": " << s.describe() << "\n";
    }
    out << impact.changedCount() << " of " << impact.bundles.size() << " verdict(s) changed\n";
    return out.str();
}

}  // namespace attrib::engine

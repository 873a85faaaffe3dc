#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <doctest/doctest.h>

#include <chrono>
#include "host/cuda/jit_cache.h"
#include "host/cuda/jit_compile.h"
#include "host/cuda/jit_source.h"
#include "host/engine/indicator_signatures.h"
#include "host/spec/combination_space.h"
#include "host/spec/grid.h"
#include "host/spec/strategy_spec.h"
#include "spec/embedded_specs.h"

using namespace btforge;
using namespace btforge::cuda;
namespace fs = std::filesystem;

namespace {

// A fresh directory under the test's temporary area, removed at the end.
struct TempDir {
    fs::path path;
    TempDir() {
        static int counter = 0;
        path = fs::temp_directory_path() /
               ("btforge_jit_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::remove_all(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::vector<std::string> files() const {
        std::vector<std::string> names;
        if (!fs::exists(path)) return names;
        for (const auto& entry : fs::directory_iterator(path)) names.push_back(entry.path().filename().string());
        return names;
    }
};

JitSource sample_source() {
    JitSource source;
    source.name = "s_sweep.cu";
    source.text = "#include \"h.cuh\"\nextern \"C\" __global__ void btforge_s_sweep() {}\n";
    source.headers = {{"h.cuh", "// header\n"}};
    source.entry_point = "btforge_s_sweep";
    return source;
}

// Returns fixed bytes and counts its calls.
struct FakeCompiler {
    int calls = 0;
    JitImage image{KernelImageKind::cubin, {0x7f, 'E', 'L', 'F', 1, 2, 3, 4}};
    JitCompiler function() {
        return [this](const JitSource&, const std::vector<std::string>&) {
            ++calls;
            return image;
        };
    }
};

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

const std::vector<std::string> kOptions = {"--gpu-architecture=sm_90", "--fmad=false", "-std=c++17"};

}  // namespace

TEST_CASE("jit_cache_key: changes with the source, a header, the options, the arch and the NVRTC version") {
    const JitSource source = sample_source();
    const std::string base = jit_cache_key(source, kOptions, "sm_90", "NVRTC 13.0");
    CHECK(base.size() == 64);
    CHECK(jit_cache_key(source, kOptions, "sm_90", "NVRTC 13.0") == base);  // deterministic

    JitSource changed = source;
    changed.text += " ";
    CHECK(jit_cache_key(changed, kOptions, "sm_90", "NVRTC 13.0") != base);
    changed = source;
    changed.headers[0].second += "x";
    CHECK(jit_cache_key(changed, kOptions, "sm_90", "NVRTC 13.0") != base);
    changed = source;
    changed.entry_point = "other";
    CHECK(jit_cache_key(changed, kOptions, "sm_90", "NVRTC 13.0") != base);

    std::vector<std::string> options = kOptions;
    options.push_back("-DBTFORGE_FIXED_a=1");
    CHECK(jit_cache_key(source, options, "sm_90", "NVRTC 13.0") != base);
    CHECK(jit_cache_key(source, kOptions, "sm_89", "NVRTC 13.0") != base);
    CHECK(jit_cache_key(source, kOptions, "sm_90", "NVRTC 12.8") != base);
    // Length prefixes: moving a character from one field to the next changes the key.
    std::vector<std::string> split = {"--gpu-architecture=sm_90", "--fmad=false-", "std=c++17"};
    CHECK(jit_cache_key(source, split, "sm_90", "NVRTC 13.0") != base);
}

TEST_CASE("jit_cache_directory: BTFORGE_CACHE_DIR, then XDG_CACHE_HOME, then HOME") {
    CHECK(jit_cache_directory("/c", "/x", "/h") == fs::path("/c"));
    CHECK(jit_cache_directory(nullptr, "/x", "/h") == fs::path("/x/btforge/jit"));
    CHECK(jit_cache_directory("", "/x", "/h") == fs::path("/x/btforge/jit"));
    CHECK(jit_cache_directory(nullptr, nullptr, "/h") == fs::path("/h/.cache/btforge/jit"));
    CHECK(jit_cache_directory(nullptr, "", "") == fs::path());
}

TEST_CASE("JIT cache entries: encode/decode round-trips, bad entries are named") {
    const JitImage image{KernelImageKind::ptx, {'.', 'v', 'e', 'r', 's', 'i', 'o', 'n', 0}};
    const std::string entry = encode_jit_entry(image);
    CHECK(entry.size() == kJitEntryHeaderSize + image.bytes.size());
    std::string problem;
    std::optional<JitImage> back = decode_jit_entry(entry, &problem);
    REQUIRE(back);
    CHECK(back->kind == KernelImageKind::ptx);
    CHECK(back->bytes == image.bytes);

    CHECK_FALSE(decode_jit_entry(entry.substr(0, 10), &problem));
    CHECK(problem.find("truncated") != std::string::npos);
    CHECK_FALSE(decode_jit_entry(entry.substr(0, entry.size() - 1), &problem));
    CHECK(problem.find("payload of") != std::string::npos);
    std::string flipped = entry;
    flipped.back() ^= 1;
    CHECK_FALSE(decode_jit_entry(flipped, &problem));
    CHECK(problem.find("checksum") != std::string::npos);
    std::string foreign = entry;
    foreign[0] = 'X';
    CHECK_FALSE(decode_jit_entry(foreign, &problem));
    CHECK(problem.find("magic") != std::string::npos);
    std::string future = entry;
    future[8] = 2;
    CHECK_FALSE(decode_jit_entry(future, &problem));
    CHECK(problem.find("format") != std::string::npos);
}

TEST_CASE("build_jit_image: a miss compiles and writes, the next build hits without compiling") {
    TempDir dir;
    FakeCompiler compiler;
    std::ostringstream warnings;
    const JitSource source = sample_source();
    JitBuild first = build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", dir.path, compiler.function(), warnings);
    CHECK_FALSE(first.cache_hit);
    CHECK(compiler.calls == 1);
    CHECK(first.image.bytes == compiler.image.bytes);
    CHECK(fs::exists(first.cache_file));
    // Atomic write: the entry and nothing else (no temporary left behind).
    CHECK(dir.files() == std::vector<std::string>{first.key + ".btfjit"});

    JitBuild second = build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", dir.path, compiler.function(), warnings);
    CHECK(second.cache_hit);
    CHECK(second.compile_seconds == 0.0);
    CHECK(compiler.calls == 1);
    CHECK(second.image.kind == KernelImageKind::cubin);
    CHECK(second.image.bytes == compiler.image.bytes);
    CHECK(warnings.str().empty());

    // Another architecture is another entry.
    build_jit_image(source, kOptions, "sm_89", "NVRTC 13.0", dir.path, compiler.function(), warnings);
    CHECK(compiler.calls == 2);
    CHECK(dir.files().size() == 2);
}

TEST_CASE("build_jit_image: corrupt and truncated entries are reported once, removed and rebuilt") {
    TempDir dir;
    FakeCompiler compiler;
    const JitSource source = sample_source();
    std::ostringstream warnings;
    JitBuild first = build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", dir.path, compiler.function(), warnings);
    const std::string good = read_bytes(first.cache_file);

    SUBCASE("a flipped payload byte") {
        std::string bad = good;
        bad[kJitEntryHeaderSize + 2] ^= 0x40;
        write_bytes(first.cache_file, bad);
    }
    SUBCASE("truncated in the payload") { write_bytes(first.cache_file, good.substr(0, good.size() - 3)); }
    SUBCASE("truncated in the header") { write_bytes(first.cache_file, good.substr(0, 20)); }
    SUBCASE("empty") { write_bytes(first.cache_file, ""); }

    std::ostringstream rebuild_warnings;
    JitBuild rebuilt =
        build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", dir.path, compiler.function(), rebuild_warnings);
    CHECK_FALSE(rebuilt.cache_hit);
    CHECK(rebuilt.cache_was_corrupt);
    CHECK(compiler.calls == 2);
    CHECK(rebuilt.image.bytes == compiler.image.bytes);
    const std::string said = rebuild_warnings.str();
    CHECK(said.find("corrupt") != std::string::npos);
    CHECK(said.find(first.cache_file.string()) != std::string::npos);
    CHECK(std::count(said.begin(), said.end(), '\n') == 1);
    CHECK(read_bytes(first.cache_file) == good);  // rewritten whole

    std::ostringstream later;
    JitBuild hit = build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", dir.path, compiler.function(), later);
    CHECK(hit.cache_hit);
    CHECK(compiler.calls == 2);
    CHECK(later.str().empty());
}

TEST_CASE("JitCache: an interrupted write (temporary never renamed) is not an entry") {
    TempDir dir;
    FakeCompiler compiler;
    std::ostringstream warnings;
    const JitSource source = sample_source();
    const std::string key = jit_cache_key(source, kOptions, "sm_90", "NVRTC 13.0");
    JitCache cache(dir.path, warnings);
    fs::create_directories(dir.path);
    // What a process killed between writing and rename() leaves.
    fs::path temporary = cache.entry_path(key);
    temporary += ".tmp-99999-0";
    write_bytes(temporary, encode_jit_entry(compiler.image).substr(0, 40));
    CHECK(cache.read(key).status == JitCache::Status::miss);

    JitBuild build = build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", dir.path, compiler.function(), warnings);
    CHECK_FALSE(build.cache_hit);
    CHECK(compiler.calls == 1);
    CHECK(warnings.str().empty());  // a miss, not a corrupt entry
    CHECK(cache.read(key).status == JitCache::Status::hit);
}

TEST_CASE("JitCache: a write removes temporaries older than an hour and keeps younger ones") {
    TempDir dir;
    FakeCompiler compiler;
    std::ostringstream warnings;
    JitCache cache(dir.path, warnings);
    fs::create_directories(dir.path);
    const fs::path stale = dir.path / "0123.btfjit.tmp-99999-0";
    const fs::path young = dir.path / "4567.btfjit.tmp-99999-1";
    const fs::path other = dir.path / "notes.txt";
    for (const fs::path& p : {stale, young, other}) write_bytes(p, "x");
    fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(2));
    fs::last_write_time(other, fs::file_time_type::clock::now() - std::chrono::hours(2));
    CHECK(cache.write("89ab", compiler.image));
    CHECK_FALSE(fs::exists(stale));
    CHECK(fs::exists(young));  // a writer may still be renaming it
    CHECK(fs::exists(other));  // not ours
    CHECK(cache.read("89ab").status == JitCache::Status::hit);
}

TEST_CASE("build_jit_image: no cache directory compiles every time; an unwritable one warns") {
    FakeCompiler compiler;
    std::ostringstream warnings;
    const JitSource source = sample_source();
    JitBuild build = build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", {}, compiler.function(), warnings);
    CHECK(build.cache_file.empty());
    build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", {}, compiler.function(), warnings);
    CHECK(compiler.calls == 2);
    CHECK(warnings.str().empty());

    TempDir dir;
    fs::create_directories(dir.path.parent_path());
    write_bytes(dir.path, "a file where the directory should be");
    build = build_jit_image(source, kOptions, "sm_90", "NVRTC 13.0", dir.path / "jit", compiler.function(), warnings);
    CHECK(build.image.bytes == compiler.image.bytes);
    CHECK(warnings.str().find("cannot write the JIT cache") != std::string::npos);
    fs::remove(dir.path);
}

TEST_CASE("exact_double_literal: hex floats that read back bit for bit") {
    CHECK(exact_double_literal(3.0) == "0x1.8p+1");
    CHECK(exact_double_literal(1.0) == "0x1p+0");
    CHECK(exact_double_literal(-1.0) == "(-0x1p+0)");
    CHECK(exact_double_literal(0.0) == "0x0p+0");
    const double values[] = {0.1, -0.1, 0.03, 2.5e-300, 1.7976931348623157e308, 4.9e-324, -0.0, 1.0 / 3.0,
                             0.021544346900318846};
    for (double value : values) {
        std::string literal = exact_double_literal(value);
        INFO(literal);
        std::string digits = literal;
        if (digits.front() == '(') digits = digits.substr(1, digits.size() - 2);
        const double back = std::strtod(digits.c_str(), nullptr);
        std::uint64_t a = 0;
        std::uint64_t b = 0;
        std::memcpy(&a, &value, sizeof a);
        std::memcpy(&b, &back, sizeof b);
        CHECK(a == b);
    }
    CHECK_THROWS_AS(exact_double_literal(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
    CHECK_THROWS_AS(exact_double_literal(std::numeric_limits<double>::infinity()), std::invalid_argument);
    CHECK(fixed_parameter_literal(FixedParameter{"n", true, 12.0}) == "12");
    CHECK(fixed_parameter_literal(FixedParameter{"n", true, -3.0}) == "(-3)");
    CHECK_THROWS_AS(fixed_parameter_literal(FixedParameter{"n", true, 1.5}), std::invalid_argument);
}

TEST_CASE("jit_compile_options: exact device, no FMA contraction, C++17, folded parameters by name") {
    std::vector<FixedParameter> fixed = {{"stop_pct", false, 0.03}, {"fast_period", true, 10.0}};
    std::vector<std::string> options = jit_compile_options(9, 0, true, fixed);
    const std::string offsetof_option(kNvrtcOffsetofOption);
    CHECK(options == std::vector<std::string>{"--gpu-architecture=sm_90", "--fmad=false", "-std=c++17",
                                              offsetof_option, "-DBTFORGE_FIXED_fast_period=10",
                                              "-DBTFORGE_FIXED_stop_pct=" + exact_double_literal(0.03)});
    std::reverse(fixed.begin(), fixed.end());
    CHECK(jit_compile_options(9, 0, true, fixed) == options);  // order-independent
    CHECK(jit_compile_options(8, 6, false, {}) ==
          std::vector<std::string>{"--gpu-architecture=compute_86", "--fmad=false", "-std=c++17", offsetof_option});
}

TEST_CASE("fixed_parameters: the single-valued digits of a sweep, typed by the spec") {
    StrategySpec spec = parse_strategy_spec(*embedded_spec_file("sma_cross.json"), "sma_cross.json",
                                            indicator_signatures());
    Grid grid = parse_grid(R"({"strategy": "sma_cross", "parameters": {
        "fast_period": {"values": [10]}, "slow_period": {"values": [40, 60]},
        "stop_pct": {"values": [0.03]}}})",
                           "test grid", spec);
    CombinationSpace space(spec, grid);
    std::vector<FixedParameter> fixed = fixed_parameters(spec, space);
    std::vector<std::string> names;
    for (const FixedParameter& p : fixed) names.push_back(p.name);
    // slow_period varies; parameters absent from the grid keep one value.
    CHECK(std::find(names.begin(), names.end(), "slow_period") == names.end());
    REQUIRE(std::find(names.begin(), names.end(), "fast_period") != names.end());
    REQUIRE(std::find(names.begin(), names.end(), "stop_pct") != names.end());
    for (const FixedParameter& p : fixed) {
        if (p.name == "fast_period") CHECK((p.integral && p.value == 10.0));
        if (p.name == "stop_pct") CHECK((!p.integral && p.value == 0.03));
        if (p.name == "allow_short") CHECK(p.integral);
    }
}

TEST_CASE("embedded_jit_source: every strategy's kernel with the two headers it includes") {
    JitSource source = embedded_jit_source("sma_cross");
    CHECK(source.name == "sma_cross_sweep.cu");
    CHECK(source.entry_point == "btforge_sma_cross_sweep");
    CHECK(source.text.find("#include \"btforge_device.cuh\"") != std::string::npos);
    CHECK(source.text.find("extern \"C\"") != std::string::npos);
    REQUIRE(source.headers.size() == 2);
    CHECK(source.headers[0].first == "btforge_layout.h");
    CHECK(source.headers[1].first == "btforge_device.cuh");
    CHECK(source.headers[1].second.find("#include \"btforge_layout.h\"") != std::string::npos);
    CHECK(has_embedded_jit_source("default"));
    CHECK_FALSE(has_embedded_jit_source("nope"));
    CHECK_THROWS_WITH_AS(embedded_jit_source("nope"), doctest::Contains("sma_cross"), std::runtime_error);

    // The embedded text is the checked-in file, byte for byte.
    const char* root = std::getenv("BTFORGE_SOURCE_DIR");
    if (root != nullptr) {
        CHECK(source.text == read_bytes(fs::path(root) / "generated" / "sma_cross_sweep.cu"));
        CHECK(source.headers[1].second == read_bytes(fs::path(root) / "generated" / "btforge_device.cuh"));
    }
}

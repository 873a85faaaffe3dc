#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

#include "host/io/sha256.h"

using btforge::sha256_hex;

namespace {

struct Vector {
    const char* name;
    std::string message;
    const char* digest;
};

}  // namespace

// The messages of FIPS 180-4's SHA-256 examples (NIST CSRC, "Examples with
// intermediate values") and the empty message of NIST's SHAVS, then the
// lengths around the padding boundary (55 bytes leave room for the length in
// one block, 56 do not; 64 and 120 likewise one block further) and bytes that
// a signed char or a C string would mangle. Expected digests: coreutils'
// sha256sum.
TEST_CASE("sha256_hex gives the standard digests") {
    const Vector vectors[] = {
        {"FIPS 180-4: abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"FIPS 180-4: 448 bits", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"FIPS 180-4: 896 bits",
         "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
        {"FIPS 180-4: one million a", std::string(1000000, 'a'),
         "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
        {"SHAVS: empty", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"55 a", std::string(55, 'a'), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {"56 a", std::string(56, 'a'), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {"63 a", std::string(63, 'a'), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {"64 a", std::string(64, 'a'), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
        {"119 a", std::string(119, 'a'), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
        {"120 a", std::string(120, 'a'), "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
        {"a NUL and a byte above 0x7f", std::string("a\0b\xff", 4),
         "a37cc3026aae4d519e0b19c298fa913b4dccfdf0658cbccbb7deaa0226d5acdb"},
    };
    for (const Vector& v : vectors) {
        CAPTURE(v.name);
        CHECK(sha256_hex(v.message) == v.digest);
    }
}

TEST_CASE("sha256_hex hashes exactly the bytes of the view") {
    const std::string text = "xxabcxx";
    CHECK(sha256_hex(std::string_view(text).substr(2, 3)) == sha256_hex("abc"));
}

TEST_CASE("Sha256 in pieces equals sha256_hex of the whole, and hex() does not end the hash") {
    std::string text;
    for (int i = 0; i < 1000; ++i) text += std::to_string(i * 7919) + ",";
    for (std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{64}, std::size_t{1000}}) {
        CAPTURE(piece);
        btforge::Sha256 hash;
        for (std::size_t at = 0; at < text.size(); at += piece) {
            const std::size_t n = std::min(piece, text.size() - at);
            hash.update(text.data() + at, n);
            if (at == 0) CHECK(hash.hex() == sha256_hex(text.substr(0, n)));
        }
        CHECK(hash.hex() == sha256_hex(text));
    }
}

TEST_CASE("sha256_hex_of_input hashes what is left of an input file, read in pieces") {
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("btforge-sha256-test-" + std::to_string(::getpid()));
    std::string text;
    for (int i = 0; i < 300000; ++i) text += std::to_string(i) + "\n";  // more than one 1 MiB piece
    std::ofstream(file, std::ios::binary) << text;
    btforge::InputFile input(file, "market file", btforge::InputStreaming::refused);
    CHECK(btforge::sha256_hex_of_input(input) == sha256_hex(text));
    input.seek(10);
    CHECK(btforge::sha256_hex_of_input(input) == sha256_hex(std::string_view(text).substr(10)));
    std::filesystem::remove(file);
    // Note [Market cache]: a file that is not there is told apart from one that cannot be read.
    try {
        btforge::InputFile absent(file, "market cache", btforge::InputStreaming::refused);
        FAIL("opened");
    } catch (const btforge::InputFileError& e) {
        CHECK(e.missing());
    }
    try {
        btforge::InputFile folder(std::filesystem::temp_directory_path(), "market cache",
                                  btforge::InputStreaming::refused);
        FAIL("opened");
    } catch (const btforge::InputFileError& e) {
        CHECK_FALSE(e.missing());
        CHECK(e.rule() == "not-a-regular-file");
    }
}

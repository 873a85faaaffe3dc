#include "host/io/sha256.h"

#include <nettle/base16.h>
#include <nettle/sha2.h>

#include <array>
#include <cstdint>
#include <vector>

namespace btforge {

// Note [SHA-256 from Nettle]
// The digest comes from Debian's nettle-dev, not from code of our own: a
// maintained, tested implementation. Nettle rather than OpenSSL's libcrypto
// because a hash is all btforge needs: nettle/sha2.h is a plain function
// call with no provider or configuration loading at run time, and its static
// archive (libnettle.a) depends on nothing else, so the static-runtime build
// that is carried to the GPU machine links it like libcsv (see the root
// CMakeLists.txt); libcrypto.a would bring the whole of OpenSSL along.
struct Sha256::State {
    sha256_ctx context;
};

Sha256::Sha256() : state_(std::make_unique<State>()) { sha256_init(&state_->context); }

Sha256::~Sha256() = default;

void Sha256::update(const void* data, std::size_t bytes) {
    sha256_update(&state_->context, bytes, static_cast<const std::uint8_t*>(data));
}

std::string Sha256::hex() const {
    sha256_ctx copy = state_->context;  // sha256_digest resets the context it is given
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
    sha256_digest(&copy, digest.size(), digest.data());
    std::string hex(BASE16_ENCODE_LENGTH(digest.size()), '\0');
    base16_encode_update(hex.data(), digest.size(), digest.data());  // lower-case digits
    return hex;
}

std::string sha256_hex(std::string_view data) {
    Sha256 hash;
    hash.update(data.data(), data.size());
    return hash.hex();
}

std::string sha256_hex_of_input(InputFile& input) {
    Sha256 hash;
    std::vector<char> buffer(std::size_t{1} << 20);
    for (std::size_t got; (got = input.read_some(buffer.data(), buffer.size())) > 0;) hash.update(buffer.data(), got);
    return hash.hex();
}

}  // namespace btforge

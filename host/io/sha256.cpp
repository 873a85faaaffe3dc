#include "host/io/sha256.h"

#include <nettle/base16.h>
#include <nettle/sha2.h>

#include <array>
#include <cstdint>

namespace btforge {

// Note [SHA-256 from Nettle]
// The digest comes from Debian's nettle-dev, not from code of our own: a
// maintained, tested implementation. Nettle rather than OpenSSL's libcrypto
// because a hash is all btforge needs: nettle/sha2.h is a plain function
// call with no provider or configuration loading at run time, and its static
// archive (libnettle.a) depends on nothing else, so the static-runtime build
// that is carried to the GPU machine links it like libcsv (see the root
// CMakeLists.txt); libcrypto.a would bring the whole of OpenSSL along.
std::string sha256_hex(std::string_view data) {
    sha256_ctx context;
    sha256_init(&context);
    sha256_update(&context, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
    std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
    sha256_digest(&context, digest.size(), digest.data());
    std::string hex(BASE16_ENCODE_LENGTH(digest.size()), '\0');
    base16_encode_update(hex.data(), digest.size(), digest.data());  // lower-case digits
    return hex;
}

}  // namespace btforge

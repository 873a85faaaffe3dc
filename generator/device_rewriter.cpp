#include "generator/device_rewriter.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace btforge::gen {

namespace {

constexpr std::array<std::string_view, 10> kStdMath = {"sqrt", "fabs", "round", "floor", "ceil",
                                                       "fmin", "fmax", "isnan", "abs",   "trunc"};

constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kFixedWidthTypes = {{
    {"size_t", "unsigned long"},  // LP64 on x86-64 Linux and on the device alike
    {"int64_t", "long long"},
    {"uint64_t", "unsigned long long"},
    {"int32_t", "int"},
    {"uint32_t", "unsigned int"},
    {"int16_t", "short"},
    {"uint16_t", "unsigned short"},
    {"int8_t", "signed char"},
    {"uint8_t", "unsigned char"},
}};

bool is(const std::vector<Token>& tokens, std::size_t i, std::string_view spelling) {
    return i < tokens.size() && tokens[i].spelling == spelling;
}

// The declarator names of the field declaration that starts after `from`,
// up to its ';': each identifier that ends a declarator (followed by ';', ',',
// '[', a default member initializer '=' or '{', or a bit-field ':'), outside
// brackets and initializers.
std::vector<std::size_t> declarator_names(const std::vector<Token>& tokens, std::size_t from) {
    std::vector<std::size_t> names;
    int depth = 0;  // (), [], {} nesting
    bool in_initializer = false;
    for (std::size_t i = from; i < tokens.size(); ++i) {
        const std::string& s = tokens[i].spelling;
        if (depth == 0 && s == ";") break;
        if (s == "(" || s == "[" || s == "{") ++depth;
        if (s == ")" || s == "]" || s == "}") --depth;
        if (depth == 0 && s == ",") in_initializer = false;
        if (depth == 0 && (s == "=" || s == ":")) in_initializer = true;
        if (depth != 0 || in_initializer || tokens[i].kind != Token::Kind::Identifier) continue;
        for (std::string_view end : {";", ",", "[", "=", "{", ":"}) {
            if (is(tokens, i + 1, end)) {
                names.push_back(i);
                break;
            }
        }
    }
    return names;
}

}  // namespace

std::string rewrite_for_device(const Entity& entity) {
    const std::vector<Token>& tokens = entity.tokens;
    std::string out;
    std::size_t copied = 0;  // end of the text already emitted
    auto emit_gap = [&](std::size_t upto) {
        out.append(entity.text, copied, upto - copied);
        copied = upto;
    };
    auto skip_to_end_of = [&](std::size_t token) { copied = tokens[token].offset + tokens[token].spelling.size(); };
    std::vector<std::size_t> cold_names;  // tokens to emit BTFORGE_COLD before

    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& tok = tokens[i];
        if (std::find(cold_names.begin(), cold_names.end(), i) != cold_names.end()) {
            emit_gap(tok.offset);
            out += "BTFORGE_COLD ";
        }
        if (tok.spelling == "BT_KERNEL") {
            emit_gap(tok.offset);
            if (entity.kind == Entity::Kind::Function) {
                out += "BTFORGE_DEVICE";
                skip_to_end_of(i);
            } else {
                // Drop the marker and the one space after it.
                skip_to_end_of(i);
                if (copied < entity.text.size() && entity.text[copied] == ' ') ++copied;
            }
            continue;
        }
        if (tok.spelling == "BT_COLD") {
            // The qualifier goes right before each name, so that it qualifies
            // the field itself: `const double* volatile atr`, the pointer, not
            // what it points to.
            emit_gap(tok.offset);
            skip_to_end_of(i);
            if (copied < entity.text.size() && entity.text[copied] == ' ') ++copied;
            cold_names = declarator_names(tokens, i + 1);
            continue;
        }
        if (tok.spelling == "BT_NO_UNROLL") {
            emit_gap(tok.offset);
            out += "BTFORGE_NO_UNROLL";
            skip_to_end_of(i);
            continue;
        }
        if (tok.spelling == "std" && is(tokens, i + 1, "::") && i + 2 < tokens.size()) {
            std::string_view name = tokens[i + 2].spelling;
            std::string replacement;
            std::size_t last = i + 2;
            for (std::string_view math : kStdMath) {
                if (name == math) replacement = std::string(math);
            }
            for (auto [from, to] : kFixedWidthTypes) {
                if (name == from) replacement = std::string(to);
            }
            if (name == "countr_zero") replacement = "btforge_countr_zero";
            if (name == "numeric_limits" && is(tokens, i + 3, "<") && is(tokens, i + 4, "double") &&
                is(tokens, i + 5, ">") && is(tokens, i + 6, "::") && i + 7 < tokens.size()) {
                std::string_view member = tokens[i + 7].spelling;
                if (member == "quiet_NaN") replacement = "btforge_quiet_nan";
                if (member == "infinity") replacement = "btforge_infinity";
                last = i + 7;
            }
            if (!replacement.empty()) {
                emit_gap(tok.offset);
                out += replacement;
                skip_to_end_of(last);
                i = last;
                continue;
            }
        }
    }
    emit_gap(entity.text.size());
    return out;
}

}  // namespace btforge::gen

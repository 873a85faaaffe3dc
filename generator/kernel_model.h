#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace btforge::gen {

// Note [The kernel model]
// btforge-gen parses the reference with libclang once, into this immutable
// model of the marked (BT_KERNEL) entities; the subset rules and every
// emitter read only the model. Each entity keeps where it came from, so an
// error points at the reference line, and its original text with its tokens,
// so emitters rewrite token by token (std::sqrt -> sqrt) and keep the
// reference's comments, names and statement order.

struct SourceLocation {
    std::string file;  // relative to the repository root, '/'-separated
    unsigned line = 0;  // 1-based
    unsigned column = 0;  // 1-based
};

// One token of an entity's text. `offset` indexes Entity::text; the text
// between tokens (whitespace, comments) is copied through unchanged.
struct Token {
    enum class Kind { Punctuation, Keyword, Identifier, Literal };
    Kind kind = Kind::Identifier;
    std::string spelling;
    std::size_t offset = 0;
};

struct Field {
    std::string name;
    std::string type;  // canonical spelling, e.g. "double", "const double *", "int[16]"
    std::uint64_t offset = 0;  // bytes, x86-64 layout (the same on the device for these types)
    std::uint64_t size = 0;
    SourceLocation location;  // of the field's name
};

struct Parameter {
    std::string name;
    std::string type;  // canonical spelling, e.g. "const double *", "int"
};

// Note [Guarded uses]
// What the reference's functions do under which of their own tests, for the
// proof of the spec's claims (Note [Parameters a mode reads]): each read of
// a field of a marked struct and each call of a marked function, with the
// tests of fields against constants that must hold for it to run. A test
// is recorded only where the parser can read it exactly (`f == K`,
// `f != K`, a bare int/bool field, `!`, and conjunctions on the taken
// side); any other condition adds nothing, which can only make a use look
// reachable in more cases, never fewer.
struct FieldTest {
    std::string field;  // qualified, e.g. "btforge::DefaultParams::mode"
    bool equal = true;  // field == value; false: field != value
    long long value = 0;
};

struct GuardedUse {
    enum class Kind { FieldRead, Call };
    Kind kind = Kind::FieldRead;
    std::string target;              // the field ("btforge::DefaultParams::ema_fast") or the function, qualified
    SourceLocation location;         // of the use
    std::vector<FieldTest> guard;    // all hold wherever the use runs
};

// A place where marked code makes an instance of a marked struct or may
// change or reinterpret one: a variable or field held by value, a parameter
// by value that is not const, a reference or pointer to non-const, a braced
// or cast-made value, a call that returns one by value, a cast of a pointer
// or reference to one. A claim about a struct's field needs the struct
// received once and read only (Note [Parameters a mode reads]).
struct ChangeableInstance {
    std::string type;  // the struct, qualified
    SourceLocation location;
};

struct Entity {
    enum class Kind { Struct, Enum, Constant, Function };
    Kind kind = Kind::Function;
    std::string name;            // unqualified, e.g. "apply_close_fill"
    std::string qualified_name;  // e.g. "btforge::apply_close_fill"
    SourceLocation location;     // of the name
    std::string text;            // from the start of its leading comment (if any) to the end of its declaration
    std::vector<Token> tokens;   // of `text`, in order
    // Structs: fields and layout.
    std::vector<Field> fields;
    std::uint64_t size = 0;
    std::uint64_t alignment = 0;
    // Functions: the parameters, in order.
    std::vector<Parameter> parameters;
    // Functions: the marked functions it calls (qualified names), in first-call order.
    std::vector<std::string> callees;
    // Functions: Note [Guarded uses], in source order.
    std::vector<GuardedUse> uses;
    std::vector<ChangeableInstance> changeable_instances;
};

// A use of the device subset that generation cannot accept.
struct Violation {
    SourceLocation location;
    std::string rule;         // e.g. "heap-allocation", "recursion"
    std::string explanation;  // one line, says what and why
};

struct ReferenceModel {
    // Every marked entity of the parsed files, in a dependency-respecting
    // order: declarations before uses (the order of the reference headers
    // as the preprocessor includes them).
    std::vector<Entity> entities;
    std::vector<Violation> violations;     // empty when the subset is respected
    std::vector<std::string> input_files;  // every reference file read, relative, sorted
};

}  // namespace btforge::gen

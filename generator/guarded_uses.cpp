#include "generator/guarded_uses.h"

#include <optional>
#include <utility>
#include <vector>

namespace btforge::gen {

namespace {

using namespace clang_util;

std::vector<CXCursor> children_of(CXCursor c) {
    std::vector<CXCursor> out;
    visit_children(c, [&](CXCursor child, CXCursor) {
        out.push_back(child);
        return CXChildVisit_Continue;
    });
    return out;
}

// Parentheses and implicit conversions (libclang shows them as
// UnexposedExpr) do not change which field a condition tests.
CXCursor strip(CXCursor c) {
    for (;;) {
        CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr) return c;
        std::vector<CXCursor> kids = children_of(c);
        if (kids.size() != 1) return c;
        c = kids.front();
    }
}

bool is_integral(CXType t) {
    switch (clang_getCanonicalType(t).kind) {
        case CXType_Bool:
        case CXType_Char_S:
        case CXType_Char_U:
        case CXType_SChar:
        case CXType_UChar:
        case CXType_Short:
        case CXType_UShort:
        case CXType_Int:
        case CXType_UInt:
        case CXType_Long:
        case CXType_ULong:
        case CXType_LongLong:
        case CXType_ULongLong:
            return true;
        default:
            return false;
    }
}

class UseCollector {
public:
    UseCollector(CXTranslationUnit tu, const std::unordered_set<std::string>& marked, const PathMapper& paths, Entity& e)
        : tu_(tu), marked_(marked), paths_(paths), e_(e) {}

    void walk_body(CXCursor function) {
        for (CXCursor child : children_of(function)) walk(child, {});
    }

private:
    using Guard = std::vector<FieldTest>;

    // What a condition tells where it is true and where it is false
    // (Note [Guarded uses]); empty where nothing can be read exactly.
    struct Condition {
        Guard when_true;
        Guard when_false;
    };

    SourceLocation at(CXCursor c) const {
        FilePosition p = file_position(clang_getCursorLocation(c));
        return SourceLocation{paths_.relative(p.file), p.line, p.column};
    }

    bool is_marked(CXCursor declaration) const {
        return !is_null(declaration) && marked_.count(take(clang_getCursorUSR(declaration))) != 0;
    }

    // The qualified field a member expression names, when it is a field of a marked struct.
    std::optional<std::string> marked_field(CXCursor c) const {
        c = strip(c);
        if (clang_getCursorKind(c) != CXCursor_MemberRefExpr) return std::nullopt;
        CXCursor field = clang_getCursorReferenced(c);
        if (is_null(field) || clang_getCursorKind(field) != CXCursor_FieldDecl) return std::nullopt;
        if (!is_marked(clang_getCursorSemanticParent(field))) return std::nullopt;
        return qualified_name(field);
    }

    static std::optional<long long> integer_constant(CXCursor c) {
        CXEvalResult result = clang_Cursor_Evaluate(strip(c));
        if (result == nullptr) return std::nullopt;
        std::optional<long long> value;
        if (clang_EvalResult_getKind(result) == CXEval_Int) value = clang_EvalResult_getAsLongLong(result);
        clang_EvalResult_dispose(result);
        return value;
    }

    // The spelling of an operator: the first punctuation token at or after
    // `after` (the end of the left operand; 0 for a unary operator).
    std::string operator_spelling(CXCursor c, unsigned after) const {
        CXToken* tokens = nullptr;
        unsigned n = 0;
        clang_tokenize(tu_, clang_getCursorExtent(c), &tokens, &n);
        std::string op;
        for (unsigned i = 0; i < n; ++i) {
            if (clang_getTokenKind(tokens[i]) != CXToken_Punctuation) continue;
            if (file_position(clang_getTokenLocation(tu_, tokens[i])).offset < after) continue;
            op = take(clang_getTokenSpelling(tu_, tokens[i]));
            break;
        }
        clang_disposeTokens(tu_, tokens, n);
        return op;
    }

    std::string binary_operator(CXCursor c, CXCursor lhs) const {
        return operator_spelling(c, file_position(clang_getRangeEnd(clang_getCursorExtent(lhs))).offset);
    }

    static FieldTest negated(FieldTest t) {
        t.equal = !t.equal;
        return t;
    }

    static Guard joined(Guard a, const Guard& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    }

    Condition condition_of(CXCursor c) const {
        c = strip(c);
        CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_BinaryOperator) {
            std::vector<CXCursor> kids = children_of(c);
            if (kids.size() != 2) return {};
            std::string op = binary_operator(c, kids[0]);
            if (op == "&&") return {joined(condition_of(kids[0]).when_true, condition_of(kids[1]).when_true), {}};
            if (op == "||") return {{}, joined(condition_of(kids[0]).when_false, condition_of(kids[1]).when_false)};
            if (op != "==" && op != "!=") return {};
            for (int side = 0; side < 2; ++side) {
                std::optional<std::string> field = marked_field(kids[side]);
                if (!field || !is_integral(clang_getCursorType(strip(kids[side])))) continue;
                std::optional<long long> value = integer_constant(kids[1 - side]);
                if (!value) continue;
                FieldTest t{*field, op == "==", *value};
                return {{t}, {negated(t)}};
            }
            return {};
        }
        if (k == CXCursor_UnaryOperator) {
            std::vector<CXCursor> kids = children_of(c);
            if (kids.size() != 1 || operator_spelling(c, 0) != "!") return {};
            Condition inner = condition_of(kids[0]);
            return {inner.when_false, inner.when_true};
        }
        std::optional<std::string> field = marked_field(c);
        if (field && is_integral(clang_getCursorType(c))) {
            FieldTest nonzero{*field, false, 0};
            return {{nonzero}, {negated(nonzero)}};
        }
        return {};
    }

    static bool jumps(CXCursor c) {
        CXCursorKind k = clang_getCursorKind(c);
        if (k == CXCursor_ReturnStmt || k == CXCursor_ContinueStmt || k == CXCursor_BreakStmt ||
            k == CXCursor_GotoStmt) {
            return true;
        }
        if (k != CXCursor_CompoundStmt) return false;
        std::vector<CXCursor> kids = children_of(c);
        return !kids.empty() && jumps(kids.back());
    }

    // An if statement as [condition, then, else?]; an init statement or a
    // condition variable makes it unreadable (walked without narrowing).
    static bool plain_if(const std::vector<CXCursor>& kids) {
        return (kids.size() == 2 || kids.size() == 3) && clang_isExpression(clang_getCursorKind(kids[0])) != 0;
    }

    void walk(CXCursor c, const Guard& guard) {
        CXCursorKind k = clang_getCursorKind(c);
        std::vector<CXCursor> kids = children_of(c);
        if ((k == CXCursor_IfStmt && plain_if(kids)) || (k == CXCursor_ConditionalOperator && kids.size() == 3)) {
            Condition condition = condition_of(kids[0]);
            walk(kids[0], guard);
            walk(kids[1], joined(guard, condition.when_true));
            if (kids.size() == 3) walk(kids[2], joined(guard, condition.when_false));
            return;
        }
        if (k == CXCursor_BinaryOperator && kids.size() == 2) {
            std::string op = binary_operator(c, kids[0]);
            if (op == "&&" || op == "||") {
                Condition left = condition_of(kids[0]);
                walk(kids[0], guard);
                walk(kids[1], joined(guard, op == "&&" ? left.when_true : left.when_false));
                return;
            }
        }
        if (k == CXCursor_CompoundStmt) {
            // After `if (c) return;` the rest of the block runs only where c
            // is false; a label starts again from the block's own guard.
            Guard running = guard;
            for (CXCursor child : kids) {
                CXCursorKind ck = clang_getCursorKind(child);
                if (ck == CXCursor_CaseStmt || ck == CXCursor_DefaultStmt || ck == CXCursor_LabelStmt) running = guard;
                walk(child, running);
                if (ck != CXCursor_IfStmt) continue;
                std::vector<CXCursor> parts = children_of(child);
                if (!plain_if(parts)) continue;
                bool then_jumps = jumps(parts[1]);
                bool else_jumps = parts.size() == 3 && jumps(parts[2]);
                if (then_jumps == else_jumps) continue;
                Condition condition = condition_of(parts[0]);
                running = joined(running, then_jumps ? condition.when_false : condition.when_true);
            }
            return;
        }
        if (k == CXCursor_MemberRefExpr) {
            if (std::optional<std::string> field = marked_field(c)) {
                e_.uses.push_back(GuardedUse{GuardedUse::Kind::FieldRead, *field, at(c), guard});
            }
        } else if (k == CXCursor_CallExpr) {
            CXCursor callee = clang_getCursorReferenced(c);
            CXCursorKind ck = clang_getCursorKind(callee);
            if ((ck == CXCursor_FunctionDecl || ck == CXCursor_FunctionTemplate) && is_marked(callee)) {
                e_.uses.push_back(GuardedUse{GuardedUse::Kind::Call, qualified_name(callee), at(c), guard});
            }
        } else if (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) {
            note_declaration(c, k == CXCursor_ParmDecl);
        }
        note_expression(c, k, kids);
        for (CXCursor child : kids) walk(child, guard);
    }

public:
    // A declaration through which a marked struct may differ from the one
    // passed in: a new instance (a variable or field held by value; a
    // function parameter by value only when not const, being a copy of the
    // caller's) or a reference or pointer to non-const.
    void note_declaration(CXCursor c, bool parameter) {
        CXType t = clang_getCanonicalType(clang_getCursorType(c));
        while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
            t = clang_getCanonicalType(clang_getArrayElementType(t));
            parameter = false;
        }
        bool indirect = t.kind == CXType_LValueReference || t.kind == CXType_RValueReference || t.kind == CXType_Pointer;
        CXType target = indirect ? clang_getCanonicalType(clang_getPointeeType(t)) : t;
        CXCursor record = clang_getTypeDeclaration(target);
        if (!is_marked(record) || clang_getCursorKind(record) == CXCursor_EnumDecl) return;
        bool is_const = clang_isConstQualifiedType(target) != 0;
        bool changes = indirect ? !is_const : (!parameter || !is_const);
        if (changes) e_.changeable_instances.push_back(ChangeableInstance{qualified_name(record), at(c)});
    }

    // An expression that makes a new instance of a marked struct (braces, a
    // functional cast, a call returning one by value) or casts a pointer or
    // reference to one (const_cast, reinterpret_cast, a C cast).
    void note_expression(CXCursor c, CXCursorKind k, const std::vector<CXCursor>& kids) {
        auto marked_record = [&](CXType t) {
            CXCursor record = clang_getTypeDeclaration(clang_getCanonicalType(t));
            return is_marked(record) && clang_getCursorKind(record) != CXCursor_EnumDecl ? qualified_name(record)
                                                                                           : std::string();
        };
        std::string made;
        if (k == CXCursor_InitListExpr || k == CXCursor_CompoundLiteralExpr || k == CXCursor_CXXFunctionalCastExpr ||
            k == CXCursor_CallExpr) {
            made = marked_record(clang_getCursorType(c));
        } else if ((k == CXCursor_CStyleCastExpr || k == CXCursor_CXXReinterpretCastExpr ||
                    k == CXCursor_CXXConstCastExpr || k == CXCursor_CXXStaticCastExpr) &&
                   !kids.empty()) {
            // Expressions have no reference types: a cast to T& has type T.
            auto pointee_or_self = [](CXType t) {
                t = clang_getCanonicalType(t);
                return t.kind == CXType_Pointer || t.kind == CXType_LValueReference ||
                               t.kind == CXType_RValueReference
                           ? clang_getPointeeType(t)
                           : t;
            };
            made = marked_record(pointee_or_self(clang_getCursorType(strip(kids.back()))));
            if (made.empty()) made = marked_record(pointee_or_self(clang_getCursorType(c)));
        }
        if (!made.empty()) e_.changeable_instances.push_back(ChangeableInstance{made, at(c)});
    }

private:
    CXTranslationUnit tu_;
    const std::unordered_set<std::string>& marked_;
    const PathMapper& paths_;
    Entity& e_;
};

}  // namespace

void fill_guarded_uses(CXTranslationUnit tu, CXCursor function, const std::unordered_set<std::string>& marked_usrs,
                       const PathMapper& paths, Entity& e) {
    UseCollector(tu, marked_usrs, paths, e).walk_body(function);
}

void fill_struct_instances(CXCursor record, const std::unordered_set<std::string>& marked_usrs,
                           const PathMapper& paths, Entity& e) {
    UseCollector collector(nullptr, marked_usrs, paths, e);
    visit_children(record, [&](CXCursor field, CXCursor) {
        if (clang_getCursorKind(field) == CXCursor_FieldDecl) collector.note_declaration(field, false);
        return CXChildVisit_Continue;
    });
}

}  // namespace btforge::gen

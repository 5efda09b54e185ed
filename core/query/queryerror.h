#pragma once
// What went wrong with a query, for the CLI and the Query dock alike: the kind (the CLI's exit status,
// the dock's wording), SQLite's message and, where SQLite knows it, the position in the SQL text.
#include <string>

namespace lanescope {

struct QueryError
{
    enum class Kind {
        None,
        Sql,       // SQLite refused the text: syntax, unknown table or column, wrong arguments
        ReadOnly,  // a statement that would change something ("read-only: ...")
        Cancelled, // cancel() was called
        TimedOut,  // the time limit passed ("query cancelled after N s")
        Runtime,   // an error while running (e.g. out of memory, integer overflow in sum())
    };

    Kind kind = Kind::None;
    // "near \"SELEC\": syntax error at line 1, column 1", "read-only: INSERT into slices ...".
    std::string message;
    int offset = -1; // byte offset in the SQL text, -1 when unknown
    int line = 0;    // 1-based line and column (in bytes) of `offset`, 0 when unknown
    int column = 0;

    explicit operator bool() const { return kind != Kind::None; }
};

} // namespace lanescope

#pragma once
// The Query dock's starter queries (issue 48): SQL over docs/sqlite-schema.md's tables that answers a
// real question, each a starting point to edit. Those whose result has ts (and dur) can be pinned as
// timeline lanes as they are. tests/core/session/tst_queryjob runs every one on a real Kineto trace and
// a real NTFF.
#include <span>

namespace lanescope {

struct StarterQuery
{
    const char *title;    // the menu entry and a pinned lane's title
    const char *question; // what it answers (tooltip)
    const char *sql;
};

class StarterQueries
{
public:
    static std::span<const StarterQuery> all();
};

} // namespace lanescope

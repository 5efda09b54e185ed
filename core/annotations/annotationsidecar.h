#pragma once
// The notes file format (docs/notes.md): one indented JSON object, "version": 1, the trace's file
// name for the reader, and "notes": [{id, kind, text, color?, start_ns, end_ns, event?}], times as
// integers on the trace clock (exact: no doubles). parse() checks everything and says where it is
// wrong: a syntax error as file:line:column with what was expected, a wrong field as
// file: notes[i].field: what was expected.
#include "annotation.h"

#include <QByteArray>
#include <QJsonObject>

#include <string>
#include <vector>

namespace lanescope {

class AnnotationSidecar
{
public:
    static constexpr int kVersion = 1;

    // One note as the file writes it (also `lanescope-cli notes --json`).
    static QJsonObject noteJson(const Annotation &note);
    static QByteArray serialize(const std::vector<Annotation> &notes, const std::string &traceName);
    // `file` names the file in messages. False with *error on a syntax error, an unknown version,
    // a missing or mistyped field, a duplicate id.
    static bool parse(const QByteArray &bytes, const std::string &file, std::vector<Annotation> *notes,
                      std::string *error);
};

} // namespace lanescope

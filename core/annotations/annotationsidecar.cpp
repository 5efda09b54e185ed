#include "annotationsidecar.h"
#include "util/qtext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <set>

namespace lanescope {

namespace {


// "line L, column C" of a byte offset (1-based, columns in bytes).
std::string lineColumn(const QByteArray &bytes, qsizetype offset)
{
    int line = 1, column = 1;
    for (qsizetype i = 0; i < offset && i < bytes.size(); ++i) {
        if (bytes[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// Reads one note; on a problem returns the field and what was expected.
bool readNote(const QJsonObject &o, Annotation *a, std::string *field, std::string *expected)
{
    const auto fail = [&](const char *f, const char *e) {
        *field = f;
        *expected = e;
        return false;
    };
    const auto integer = [](const QJsonValue &v, int64_t *out) {
        if (!v.isDouble())
            return false;
        const qint64 i = v.toInteger(INT64_MIN);
        if (i == INT64_MIN && v.toDouble() != double(INT64_MIN))
            return false; // a fraction or out of range
        *out = i;
        return true;
    };
    int64_t id = 0;
    if (!integer(o.value(QLatin1String("id")), &id) || id <= 0 || id > INT32_MAX)
        return fail("id", "a positive integer");
    a->id = int(id);
    const auto kind = Annotation::kindFromName(o.value(QLatin1String("kind")).toString().toStdString());
    if (!kind)
        return fail("kind", "\"range\", \"event\" or \"point\"");
    a->kind = *kind;
    if (!o.value(QLatin1String("text")).isString())
        return fail("text", "a string");
    a->text = o.value(QLatin1String("text")).toString().toStdString();
    const QJsonValue color = o.value(QLatin1String("color"));
    if (!color.isUndefined() && !color.isNull()) {
        a->color = color.toString().toStdString();
        if (!color.isString() || !Annotation::isValidColor(a->color))
            return fail("color", "\"#rrggbb\" or null");
    }
    if (!integer(o.value(QLatin1String("start_ns")), &a->startNs))
        return fail("start_ns", "an integer (ns on the trace clock)");
    if (!integer(o.value(QLatin1String("end_ns")), &a->endNs))
        return fail("end_ns", "an integer (ns on the trace clock)");
    if (a->endNs < a->startNs || (a->kind == Annotation::Kind::Point && a->endNs != a->startNs))
        return fail("end_ns", a->kind == Annotation::Kind::Point ? "equal to start_ns (a point in time)"
                                                                 : "not before start_ns");
    if (a->kind != Annotation::Kind::Event)
        return true;
    const QJsonObject event = o.value(QLatin1String("event")).toObject();
    int64_t slice = 0;
    if (!integer(event.value(QLatin1String("id")), &slice) || slice < 0 || slice >= int64_t(UINT32_MAX))
        return fail("event.id", "the slice id (a non-negative integer)");
    a->sliceId = uint32_t(slice);
    if (!event.value(QLatin1String("name")).isString())
        return fail("event.name", "the event's name (a string)");
    a->eventName = event.value(QLatin1String("name")).toString().toStdString();
    if (!integer(event.value(QLatin1String("start_ns")), &a->eventStartNs))
        return fail("event.start_ns", "the event's start (an integer, ns on the trace clock)");
    return true;
}

} // namespace

QJsonObject AnnotationSidecar::noteJson(const Annotation &a)
{
    QJsonObject o;
    o.insert(QLatin1String("id"), a.id);
    o.insert(QLatin1String("kind"), QLatin1String(Annotation::kindName(a.kind)));
    o.insert(QLatin1String("text"), qs(a.text));
    o.insert(QLatin1String("color"), a.color.empty() ? QJsonValue() : QJsonValue(qs(a.color)));
    o.insert(QLatin1String("start_ns"), qint64(a.startNs));
    o.insert(QLatin1String("end_ns"), qint64(a.endNs));
    if (a.kind == Annotation::Kind::Event) {
        QJsonObject event;
        event.insert(QLatin1String("id"), qint64(a.sliceId));
        event.insert(QLatin1String("name"), qs(a.eventName));
        event.insert(QLatin1String("start_ns"), qint64(a.eventStartNs));
        o.insert(QLatin1String("event"), event);
    }
    return o;
}

QByteArray AnnotationSidecar::serialize(const std::vector<Annotation> &notes, const std::string &traceName)
{
    QJsonArray list;
    for (const Annotation &a : notes)
        list.append(noteJson(a));
    QJsonObject root;
    root.insert(QLatin1String("version"), kVersion);
    root.insert(QLatin1String("trace"), qs(traceName));
    root.insert(QLatin1String("notes"), list);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool AnnotationSidecar::parse(const QByteArray &bytes, const std::string &file, std::vector<Annotation> *notes,
                              std::string *error)
{
    const auto fail = [&](const std::string &message) {
        if (error)
            *error = file + ": " + message;
        return false;
    };
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError)
        return fail(lineColumn(bytes, pe.offset) + " (byte " + std::to_string(pe.offset) + "): "
                    + pe.errorString().toStdString() + "; expected a Lanescope notes file (JSON, docs/notes.md)");
    if (!doc.isObject())
        return fail("expected a JSON object with \"version\" and \"notes\"");
    const QJsonObject root = doc.object();
    const QJsonValue version = root.value(QLatin1String("version"));
    if (!version.isDouble() || version.toInteger(-1) != kVersion)
        return fail("\"version\": expected " + std::to_string(kVersion) + ", found "
                    + (version.isDouble() ? QString::number(version.toDouble()).toStdString()
                                          : std::string(version.isUndefined() ? "nothing" : "another type"))
                    + " (a newer Lanescope wrote it?)");
    if (!root.value(QLatin1String("notes")).isArray())
        return fail("\"notes\": expected an array");
    const QJsonArray list = root.value(QLatin1String("notes")).toArray();
    std::vector<Annotation> out;
    std::set<int> ids;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const std::string where = "notes[" + std::to_string(i) + "]";
        if (!list[i].isObject())
            return fail(where + ": expected an object");
        Annotation a;
        std::string field, expected;
        if (!readNote(list[i].toObject(), &a, &field, &expected))
            return fail(where + "." + field + ": expected " + expected);
        if (!ids.insert(a.id).second)
            return fail(where + ".id: " + std::to_string(a.id) + " is used twice; expected unique ids");
        out.push_back(std::move(a));
    }
    *notes = std::move(out);
    return true;
}

} // namespace lanescope

#pragma once
// Keeps the lane arrangement (TimelineLayout::State: hidden, pinned, moved and folded lanes) per
// trace file in QSettings, keyed by a hash of the absolute path.
#include "timeline/timelinelayout.h"

#include <QString>
#include <QVariantMap>

#include <optional>

class QSettings;

namespace lanescope {

class LaneLayoutSettings
{
public:
    static QString key(const QString &path);
    static QVariantMap toVariant(const TimelineLayout::State &state);
    static TimelineLayout::State fromVariant(const QVariantMap &map);

    // The trace's default state (TimelineLayout::defaultState) removes the entry.
    static void save(QSettings &settings, const QString &path, const TimelineLayout::State &state,
                     const TimelineLayout::State &defaults = {});
    // Nothing when the file's lanes were never arranged (the layout's default then applies).
    static std::optional<TimelineLayout::State> load(const QSettings &settings, const QString &path);
};

} // namespace lanescope

// SPDX-License-Identifier: Apache-2.0
// Setters for the charts' series, bar sets and axes that leave them untouched
// when they already hold the value. Qt Charts re-lays a chart out and
// repaints it at each replace() or setTitleText(), even with what it has; a
// live board re-plots every chart several times a second, on the CPU the
// engine decodes on, and most charts (the prefill and TTFT ones during
// decode) have nothing new.
#pragma once

#include <QAbstractAxis>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QPen>
#include <QScatterSeries>
#include <QXYSeries>

namespace kvlens::ui::chart_set {

inline void points(QXYSeries* s, const QList<QPointF>& pts)
{
    if (s->points() != pts)
        s->replace(pts);
}

inline void name(QAbstractSeries* s, const QString& text)
{
    if (s->name() != text)
        s->setName(text);
}

inline void visible(QAbstractSeries* s, bool on)
{
    if (s->isVisible() != on)
        s->setVisible(on);
}

inline void pen(QXYSeries* s, const QPen& p)
{
    if (s->pen() != p)
        s->setPen(p);
}

inline void color(QScatterSeries* s, const QColor& c)
{
    if (s->color() != c)
        s->setColor(c);
}

inline void title(QAbstractAxis* axis, const QString& text)
{
    if (axis->titleText() != text)
        axis->setTitleText(text);
}

inline void categories(QBarCategoryAxis* axis, const QStringList& names)
{
    if (axis->categories() != names)
        axis->setCategories(names);
}

inline void values(QBarSet* set, const QList<qreal>& v)
{
    bool same = set->count() == v.size();
    for (qsizetype i = 0; same && i < v.size(); ++i)
        same = set->at(i) == v[i];
    if (same)
        return;
    set->remove(0, set->count());
    set->append(v);
}

}  // namespace kvlens::ui::chart_set

#pragma once
// Precompiled for the widgets library and reused by the main window library
// (LANESCOPE_PCH): the Qt Widgets, Gui and Core headers and the standard library headers most views
// include. Nothing of the product here, so editing a product header never rebuilds it.
#include <QAbstractTableModel>
#include <QAction>
#include <QColor>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPainter>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QString>
#include <QTableView>
#include <QVBoxLayout>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

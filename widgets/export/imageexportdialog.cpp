#include "imageexportdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <algorithm>

namespace lanescope {

namespace {

// Item data of the target combo box: Target in the low byte, the dock index above it.
int targetData(ImageExportDialog::Target target, int dock = 0)
{
    return int(target) | (dock << 8);
}

} // namespace

ImageExportDialog::ImageExportDialog(const QStringList &dockTitles, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Export Image"));
    m_target = new QComboBox(this);
    m_target->addItem(tr("Timeline: visible range, all lanes"), targetData(Target::TimelineAllLanes));
    m_target->addItem(tr("Timeline: visible range, lanes on screen"), targetData(Target::TimelineLanesOnScreen));
    m_target->addItem(tr("Timeline: visible range, lanes matching..."), targetData(Target::TimelineMatchingLanes));
    m_target->addItem(tr("Whole window"), targetData(Target::Window));
    for (int i = 0; i < dockTitles.size(); ++i)
        m_target->addItem(tr("Panel: %1").arg(dockTitles[i]), targetData(Target::Dock, i));

    m_regex = new QLineEdit(this);
    m_regex->setPlaceholderText(tr("regular expression on \"group / track\", e.g. GPU|stream 7"));
    m_regexError = new QLabel(this);
    m_regexError->setStyleSheet(QStringLiteral("color: #b91c1c"));
    m_regexError->hide();

    m_output = new QComboBox(this);
    m_output->addItem(tr("PNG, 1x"), int(Output::PngScale1));
    m_output->addItem(tr("PNG, 2x (high DPI)"), int(Output::PngScale2));
    m_output->addItem(tr("SVG (vector)"), int(Output::Svg));

    m_caption = new QCheckBox(tr("Caption: file, time range and date below the picture"), this);
    m_caption->setChecked(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Picture:"), m_target);
    form->addRow(tr("&Lanes:"), m_regex);
    form->addRow(QString(), m_regexError);
    form->addRow(tr("&Format:"), m_output);
    form->addRow(QString(), m_caption);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_saveButton = buttons->addButton(tr("&Save..."), QDialogButtonBox::AcceptRole);
    m_copyButton = buttons->addButton(tr("&Copy to Clipboard"), QDialogButtonBox::ActionRole);
    m_saveButton->setDefault(true);
    connect(m_saveButton, &QPushButton::clicked, this, [this] { done(Save); });
    connect(m_copyButton, &QPushButton::clicked, this, [this] { done(Copy); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(m_target, &QComboBox::currentIndexChanged, this, &ImageExportDialog::updateState);
    connect(m_output, &QComboBox::currentIndexChanged, this, &ImageExportDialog::updateState);
    connect(m_regex, &QLineEdit::textChanged, this, &ImageExportDialog::updateState);
    updateState();
}

ImageExportDialog::Choice ImageExportDialog::choice() const
{
    Choice c;
    const int data = m_target->currentData().toInt();
    c.target = Target(data & 0xff);
    c.dock = c.target == Target::Dock ? data >> 8 : -1;
    c.laneRegex = c.target == Target::TimelineMatchingLanes ? m_regex->text() : QString();
    c.output = Output(m_output->currentData().toInt());
    c.caption = m_caption->isChecked();
    return c;
}

void ImageExportDialog::setChoice(const Choice &c)
{
    const int index = m_target->findData(targetData(c.target, c.target == Target::Dock ? c.dock : 0));
    m_target->setCurrentIndex(index >= 0 ? index : 0);
    m_regex->setText(c.laneRegex);
    m_output->setCurrentIndex(std::max(0, m_output->findData(int(c.output))));
    m_caption->setChecked(c.caption);
    updateState();
}

void ImageExportDialog::updateState()
{
    const Choice c = choice();
    const bool matching = c.target == Target::TimelineMatchingLanes;
    m_regex->setEnabled(matching);
    QString error;
    if (matching) {
        const QRegularExpression regex(m_regex->text());
        if (m_regex->text().isEmpty())
            error = tr("Enter a pattern for the lanes to keep.");
        else if (!regex.isValid())
            error = tr("Invalid pattern: %1").arg(regex.errorString());
    }
    m_regexError->setText(error);
    m_regexError->setVisible(!error.isEmpty());
    m_saveButton->setEnabled(error.isEmpty());
    m_copyButton->setEnabled(error.isEmpty() && c.output != Output::Svg);
    m_copyButton->setToolTip(c.output == Output::Svg ? tr("The clipboard takes PNG pictures; choose PNG to copy.")
                                                     : QString());
}

} // namespace lanescope

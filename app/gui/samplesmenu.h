#pragma once
// Help > Samples: the bundled synthetic RMSNorm profile (written on demand into a temporary folder
// that lives as long as the application), alone or as a comparison of its three variants, opened in
// the Session.
#include <QMenu>

#include <memory>

class QTemporaryDir;

namespace lanescope {

class Session;

class SamplesMenu : public QMenu
{
    Q_OBJECT
public:
    SamplesMenu(Session *session, QWidget *parent);
    ~SamplesMenu() override;

    void openSample();
    // Three-way (naive, torch.rms_norm, torch.compile) or the pair naive vs torch.compile.
    void compareVariants(bool threeWay);

private:
    QString sampleDir(); // empty (and an error shown) when no temporary folder can be made
    void reportError(const QString &error);

    Session *m_session;
    std::unique_ptr<QTemporaryDir> m_dir;
};

} // namespace lanescope

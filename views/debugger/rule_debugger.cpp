// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/debugger/rule_debugger.h"

#include "views/debugger/debugger_breakpoints_panel.h"
#include "views/presentation.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace attrib::views {

RuleDebugger::RuleDebugger(QWidget* parent)
    : QWidget(parent)
    , m_steps(new TraceStepModel(this))
    , m_state(new SymptomStateModel(this))
    , m_details(new StepDetailsModel(this))
    , m_breakpoints(new BreakpointModel(this))
    , m_stepView(new QTreeView(this))
    , m_stateJob(new StepStateJob(this))
    , m_stateView(new QTableView(this))
    , m_stateCaption(new QLabel(this))
    , m_detailsView(new QTreeView(this))
    , m_why(new DebuggerWhyPanel(this))
    , m_evidence(new DebuggerEvidencePanel(this))
    , m_breakpointsPanel(new DebuggerBreakpointsPanel(m_breakpoints, this))
    , m_tabs(new QTabWidget(this))
    , m_answer(new QLabel(this))
    , m_position(new QLabel(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
{
    buildActions();
    buildLayout();
    connect(m_stateJob, &StepStateJob::ready, this, &RuleDebugger::showStepState);
    m_computingHint.setSingleShot(true);
    m_computingHint.setInterval(100);  // quicker steps show their state without a flash of "Computing"
    connect(&m_computingHint, &QTimer::timeout, this, &RuleDebugger::showComputing);
    connect(m_breakpoints, &BreakpointModel::breakpointsChanged, this, [this] {
        m_steps->setBreakpoints(m_breakpoints->breakpoints());
        updatePosition();
    });
    connect(m_stepView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& index) {
                if (!m_syncing && index.isValid())
                    setCurrentStep(index.row());
            });
    connect(m_stateView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& index) {
                if (m_syncing || !index.isValid())
                    return;
                const QString id = index.siblingAtColumn(0).data(SymptomStateModel::SymptomIdRole).toString();
                if (stateComputing())
                    m_pendingSymptom = id;  // keep it selected once the step's state arrives
                m_evidence->showSymptom(m_replay ? m_replay->snapshot() : nullptr, id);
                Q_EMIT symptomSelected(id);
            });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (!m_syncing)
            setCurrentStep(value);
    });
    connect(m_why, &DebuggerWhyPanel::stepRequested, this, &RuleDebugger::setCurrentStep);
    connect(m_why, &DebuggerWhyPanel::ruleRequested, this, [this](const QString& rule) { whyNot(rule); });
    connect(m_evidence, &DebuggerEvidencePanel::lineRequested, this, [this](quint64 id) { rulesForObservation(id); });
    connect(m_evidence, &DebuggerEvidencePanel::observationSelected, this, &RuleDebugger::observationSelected);
    updatePosition();
}

void RuleDebugger::buildActions()
{
    auto make = [this](QStyle::StandardPixmap icon, const QString& text, const QKeySequence& key, auto slot) {
        auto* action = new QAction(style()->standardIcon(icon), text, this);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(text + QStringLiteral(" (") + key.toString(QKeySequence::NativeText) + QLatin1Char(')'));
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    m_first =
        make(QStyle::SP_MediaSkipBackward, tr("First step"), QKeySequence(Qt::ALT | Qt::Key_Home), [this] { first(); });
    m_runBack = make(QStyle::SP_MediaSeekBackward, tr("Run back to breakpoint"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                     [this] { runBackToBreakpoint(); });
    m_back = make(QStyle::SP_ArrowLeft, tr("Step back"), QKeySequence(Qt::SHIFT | Qt::Key_F10), [this] { back(); });
    m_forward = make(QStyle::SP_ArrowRight, tr("Step forward"), QKeySequence(Qt::Key_F10), [this] { forward(); });
    m_run = make(QStyle::SP_MediaSeekForward, tr("Run to breakpoint"), QKeySequence(Qt::Key_F5),
                 [this] { runToBreakpoint(); });
    m_last =
        make(QStyle::SP_MediaSkipForward, tr("Last step"), QKeySequence(Qt::ALT | Qt::Key_End), [this] { last(); });
}

void RuleDebugger::configureViews()
{
    m_stepView->setModel(m_steps);
    m_stepView->setRootIsDecorated(false);
    m_stepView->setUniformRowHeights(true);
    m_stepView->setContextMenuPolicy(Qt::CustomContextMenu);
    m_stepView->setColumnWidth(TraceStepModel::StepColumn, 60);
    m_stepView->setColumnWidth(TraceStepModel::PhaseColumn, 64);
    m_stepView->setColumnWidth(TraceStepModel::RuleColumn, 200);
    connect(m_stepView, &QWidget::customContextMenuRequested, this, &RuleDebugger::stepContextMenu);

    m_stateView->setModel(m_state);
    m_stateView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_stateView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_stateView->verticalHeader()->hide();
    m_stateView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_stateView->horizontalHeader()->setStretchLastSection(true);
    for (int c = 0; c < SymptomStateModel::ReasonColumn; ++c)
        m_stateView->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_stateView->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_stateView, &QWidget::customContextMenuRequested, this, &RuleDebugger::stateContextMenu);

    m_detailsView->setModel(m_details);
    m_detailsView->setUniformRowHeights(true);
    m_detailsView->setColumnWidth(StepDetailsModel::KeyColumn, 200);

    m_tabs->addTab(m_detailsView, tr("Step details"));
    m_tabs->addTab(m_why, tr("Why"));
    m_tabs->addTab(m_evidence, tr("Evidence"));
    m_tabs->addTab(m_breakpointsPanel, tr("Breakpoints"));
}

void RuleDebugger::buildLayout()
{
    auto* toolbar = new QToolBar(this);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->addActions({m_first, m_runBack, m_back, m_forward, m_run, m_last});
    toolbar->addSeparator();
    toolbar->addWidget(m_position);
    m_slider->setMinimumWidth(160);
    toolbar->addWidget(m_slider);
    configureViews();
    m_answer->setWordWrap(true);
    m_answer->setTextFormat(Qt::PlainText);
    m_answer->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_answer->setMargin(4);
    m_answer->setStyleSheet(QStringLiteral("QLabel { background: #fff8e1; border: 1px solid #ffe082; }"));
    m_answer->setText(tr("Right-click a symptom for \"Why this status?\", a step or catalog rule for \"Why didn't "
                         "this fire?\", an evidence line for \"Which rules looked at this line?\"."));
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->setSpacing(2);
    lowerLayout->addWidget(m_answer);
    lowerLayout->addWidget(m_tabs, 1);
    auto* upper = new QWidget(this);
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->setSpacing(0);
    m_stateCaption->setMargin(3);
    upperLayout->addWidget(m_stateCaption);
    upperLayout->addWidget(m_stateView, 1);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(upper);
    right->addWidget(lower);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_stepView);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({560, 900});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(split, 1);
}

void RuleDebugger::setReplay(ReplayPtr replay, engine::CatalogPtr catalog)
{
    m_replay = std::move(replay);
    m_catalog = std::move(catalog);
    m_current = -1;
    m_stateJob->cancel();
    m_computingHint.stop();
    m_pendingSymptom.clear();
    m_state->setStates(-1, nullptr);
    m_steps->setReplay(m_replay);
    m_steps->setBreakpoints(m_breakpoints->breakpoints());
    m_breakpoints->setReplay(m_replay);
    m_breakpointsPanel->setReplay(m_replay);
    m_evidence->showSymptom(m_replay ? m_replay->snapshot() : nullptr, QString());
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, std::max(0, stepCount() - 1));
    last();
}

int RuleDebugger::stepCount() const
{
    return m_replay ? static_cast<int>(m_replay->stepCount()) : 0;
}

void RuleDebugger::setCurrentStep(int step)
{
    if (!m_replay || stepCount() == 0)
        return updatePosition();
    step = std::clamp(step, 0, stepCount() - 1);
    if (!stateComputing())  // else the symptom to reselect is already pending
        m_pendingSymptom =
            m_stateView->currentIndex().siblingAtColumn(0).data(SymptomStateModel::SymptomIdRole).toString();
    const bool changed = step != m_current;
    m_current = step;
    m_syncing = true;
    m_steps->setCurrentStep(step);
    m_stepView->setCurrentIndex(m_steps->index(step, 0));
    m_stepView->scrollTo(m_steps->index(step, 0));
    m_details->setStep(m_replay, step);
    m_detailsView->expandAll();
    m_slider->setValue(step);
    m_syncing = false;
    // The symptom set is computed off the GUI thread; the table keeps the last one until it arrives.
    const bool shown = !stateComputing() && m_state->step() == step;
    const bool coming = stateComputing() && m_stateJob->pendingStep() == step;
    if (!shown && !coming) {
        m_stateJob->request(m_replay, step);
        if (!m_computingHint.isActive())
            m_computingHint.start();
    }
    updatePosition();
    if (changed)
        Q_EMIT currentStepChanged(step);
}

void RuleDebugger::showStepState(const StepStatePtr& state)
{
    m_computingHint.stop();
    if (!state || state->step != m_current)
        return updateStateCaption();
    m_syncing = true;
    m_state->setStates(state->step, SymptomStateModel::States(state, &state->states));
    const int row = m_pendingSymptom.isEmpty() ? -1 : m_state->rowOf(m_pendingSymptom);
    if (row >= 0) {
        m_stateView->setCurrentIndex(m_state->index(row, 0));
        m_stateView->scrollTo(m_state->index(row, 0));
    }
    m_syncing = false;
    m_pendingSymptom.clear();
    updateStateCaption();
    Q_EMIT stepStateReady(state->step, state->result);
}

void RuleDebugger::showComputing()
{
    if (!stateComputing())
        return;
    m_state->setStale(true);
    updateStateCaption();
}

void RuleDebugger::updateStateCaption()
{
    QString text;
    if (m_replay && stateComputing() && m_state->isStale())
        text = tr("Computing the symptom set after step %1\u2026").arg(m_stateJob->pendingStep());
    else if (m_replay && m_state->step() >= 0)
        text = tr("%n symptom(s) after step %1", nullptr, m_state->rowCount()).arg(m_state->step());
    m_stateCaption->setText(text);
}

QString RuleDebugger::stateCaption() const
{
    return m_stateCaption->text();
}

void RuleDebugger::updatePosition()
{
    const int count = stepCount();
    m_position->setText(count == 0 ? tr("no trace") : tr("step %1 of %2  ").arg(m_current).arg(count - 1));
    const bool any = count > 0;
    m_first->setEnabled(any && m_current > 0);
    m_back->setEnabled(any && m_current > 0);
    m_forward->setEnabled(any && m_current < count - 1);
    m_last->setEnabled(any && m_current < count - 1);
    const auto& bps = m_breakpoints->breakpoints();
    const bool enabledBp = std::any_of(bps.begin(), bps.end(), [](const auto& b) { return b.enabled; });
    m_run->setEnabled(any && enabledBp);
    m_runBack->setEnabled(any && enabledBp);
    updateStateCaption();
}

void RuleDebugger::first()
{
    setCurrentStep(0);
}

void RuleDebugger::back()
{
    setCurrentStep(m_current - 1);
}

void RuleDebugger::forward()
{
    setCurrentStep(m_current + 1);
}

void RuleDebugger::last()
{
    setCurrentStep(stepCount() - 1);
}

bool RuleDebugger::runToBreakpoint()
{
    if (!m_replay)
        return false;
    const auto from = m_current < 0 ? engine::TraceReplay::NoStep : static_cast<std::size_t>(m_current);
    const auto hit = m_replay->nextBreak(from, m_breakpoints->breakpoints());
    if (hit)
        setCurrentStep(static_cast<int>(*hit));
    return hit.has_value();
}

bool RuleDebugger::runBackToBreakpoint()
{
    if (!m_replay || m_current < 0)
        return false;
    const auto hit = m_replay->previousBreak(static_cast<std::size_t>(m_current), m_breakpoints->breakpoints());
    if (hit)
        setCurrentStep(static_cast<int>(*hit));
    return hit.has_value();
}

void RuleDebugger::selectSymptom(const QString& id)
{
    if (stateComputing()) {  // selected once the current step's state arrives
        m_pendingSymptom = id;
        m_evidence->showSymptom(m_replay ? m_replay->snapshot() : nullptr, id);
        return;
    }
    const int row = m_state->rowOf(id);
    if (row < 0)
        return;
    m_syncing = true;
    m_stateView->setCurrentIndex(m_state->index(row, 0));
    m_stateView->scrollTo(m_state->index(row, 0));
    m_syncing = false;
    m_evidence->showSymptom(m_replay ? m_replay->snapshot() : nullptr, id);
}

engine::WhyStatus RuleDebugger::whyStatus(const QString& symptomId)
{
    if (!m_replay)
        return {};
    const auto asOf = m_current < 0 || m_current == stepCount() - 1 ? engine::TraceReplay::NoStep
                                                                    : static_cast<std::size_t>(m_current);
    auto answer = engine::whyStatus(*m_replay, symptomId.toStdString(), asOf);
    if (answer.step)
        setCurrentStep(static_cast<int>(*answer.step));
    selectSymptom(symptomId);
    showAnswer(DebuggerWhyPanel::whyStatusText(answer));
    showTab(m_detailsView);  // the step that set the status, with what it tested
    return answer;
}

engine::WhyNot RuleDebugger::whyNot(const QString& rule)
{
    if (!m_replay)
        return {};
    auto answer = engine::whyNot(*m_replay, rule.toStdString(), m_catalog.get());
    showAnswer(m_why->showWhyNot(answer));
    showTab(m_why);
    if (!answer.evaluations.empty())
        setCurrentStep(static_cast<int>(answer.evaluations.front().step));
    return answer;
}

std::vector<engine::LineLook> RuleDebugger::rulesForObservation(quint64 observation)
{
    if (!m_replay || !m_catalog)
        return {};
    auto looks = engine::rulesThatLookedAt(*m_replay, *m_catalog, observation);
    const engine::Observation* o = m_replay->result().observation(observation);
    showAnswer(m_why->showLooks(o ? qs(o->text) : QString(), looks));
    showTab(m_why);
    return looks;
}

void RuleDebugger::showTab(QWidget* tab)
{
    m_tabs->setCurrentWidget(tab);
}

void RuleDebugger::showAnswer(const QString& text)
{
    m_answer->setText(text);
}

QString RuleDebugger::answerText() const
{
    return m_answer->text();
}

void RuleDebugger::stepContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_stepView->indexAt(pos);
    if (!index.isValid() || !m_replay)
        return;
    const auto& step = m_replay->step(static_cast<std::size_t>(index.row()));
    const QString rule = qs(step.rule);
    QMenu menu;
    if (!rule.isEmpty()) {
        menu.addAction(tr("Why didn't %1 fire?").arg(rule), this, [this, rule] { whyNot(rule); });
        menu.addAction(tr("Break on rule %1").arg(rule), this,
                       [this, rule] { m_breakpoints->addBreakpoint(engine::Breakpoint::Kind::Rule, rule); });
    }
    if (!step.node.empty()) {
        const QString node = qs(step.node);
        menu.addAction(tr("Break on node %1").arg(node), this,
                       [this, node] { m_breakpoints->addBreakpoint(engine::Breakpoint::Kind::Node, node); });
    }
    if (!menu.isEmpty())
        menu.exec(m_stepView->viewport()->mapToGlobal(pos));
}

void RuleDebugger::stateContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_stateView->indexAt(pos);
    if (!index.isValid())
        return;
    const auto& s = m_state->states()[static_cast<std::size_t>(index.row())];
    const QString id = qs(s.id);
    const QString name = qs(s.name);
    QMenu menu;
    menu.addAction(tr("Why this status?"), this, [this, id] { whyStatus(id); });
    menu.addAction(tr("Evidence lines"), this, [this, id] {
        m_evidence->showSymptom(m_replay ? m_replay->snapshot() : nullptr, id);
        showTab(m_evidence);
    });
    menu.addSeparator();
    menu.addAction(tr("Break on symptom %1").arg(name), this,
                   [this, name] { m_breakpoints->addBreakpoint(engine::Breakpoint::Kind::Symptom, name); });
    if (!s.node.empty()) {
        const QString node = qs(s.node);
        menu.addAction(tr("Break on node %1").arg(node), this,
                       [this, node] { m_breakpoints->addBreakpoint(engine::Breakpoint::Kind::Node, node); });
    }
    menu.exec(m_stateView->viewport()->mapToGlobal(pos));
}

}  // namespace attrib::views

// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/selection_model.h"

namespace attrib::views {

SelectionModel::SelectionModel(QObject* parent)
    : QObject(parent)
{
}

void SelectionModel::setAnalysis(AnalysisPtr analysis)
{
    m_analysis = std::move(analysis);
    m_current = {};
    Q_EMIT analysisChanged(m_analysis);
    Q_EMIT selectionChanged(m_current);
}

void SelectionModel::selectSymptom(int symptom)
{
    if (!m_analysis || symptom < 0 || symptom >= static_cast<int>(m_analysis->r().symptoms.size()))
        return clear();
    Selection s;
    s.focus = Selection::Focus::Symptom;
    s.symptom = symptom;
    s.observation = m_analysis->primaryObservation(symptom);
    const auto& events = m_analysis->r().symptoms[symptom].events;
    if (s.observation >= 0) {
        for (std::uint32_t e : m_analysis->observationEvents[s.observation]) {
            if (m_analysis->eventSymptom[e] == symptom) {
                s.event = static_cast<int>(e);
                break;
            }
        }
    }
    if (s.event < 0 && !events.empty())
        s.event = m_analysis->eventIndex(events.front());
    apply(s);
}

void SelectionModel::selectEvent(int event)
{
    if (!m_analysis || event < 0 || event >= static_cast<int>(m_analysis->r().events.size()))
        return clear();
    Selection s;
    s.focus = Selection::Focus::Event;
    s.event = event;
    s.symptom = m_analysis->eventSymptom[event];
    const auto& obs = m_analysis->r().events[event].observations;
    if (!obs.empty())
        s.observation = m_analysis->observationIndex(obs.front());
    apply(s);
}

void SelectionModel::selectObservation(int observation, int event)
{
    if (!m_analysis || observation < 0 || observation >= static_cast<int>(m_analysis->r().observations.size()))
        return clear();
    Selection s;
    s.focus = Selection::Focus::Observation;
    s.observation = observation;
    s.event = event;
    if (s.event < 0) {
        for (std::uint32_t e : m_analysis->observationEvents[observation]) {
            if (s.event < 0 || m_analysis->eventRole(static_cast<int>(e)) > m_analysis->eventRole(s.event))
                s.event = static_cast<int>(e);
        }
    }
    s.symptom = s.event >= 0 ? m_analysis->eventSymptom[s.event] : -1;
    apply(s);
}

void SelectionModel::clear()
{
    apply({});
}

void SelectionModel::apply(const Selection& selection)
{
    if (selection == m_current)
        return;
    m_current = selection;
    Q_EMIT selectionChanged(m_current);
}

}  // namespace attrib::views

package uncertainty

import "fmt"

// ForScenario is the model `gctune simulate --replicas N --scenario S` judges on: m with N
// replicas, none for a search, asking scenario s (like, the default, or again: this input
// again, with its run-to-run cost spread).
func (m Model) ForScenario(replicas int, s Scenario) (Model, error) {
	m.Replicas, m.SearchReplicas, m.AgainReplicas = replicas, 0, replicas
	switch s {
	case ScenarioLike, "":
		return m, nil
	case ScenarioAgain:
		if m.AgainCostSigma == 0 {
			m.AgainCostSigma = DefaultAgainCostSigma
		}
		return m.Again(), nil
	}
	return Model{}, fmt.Errorf("--scenario %s: want like or again", s)
}

package study

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gctune/gctune/profile/source"
)

// TestCreatedWorkloads: a spec's text is stored, a bundled workload is in every gctune, a
// recorded profile is needed at its path.
func TestCreatedWorkloads(t *testing.T) {
	p := &Problem{Workloads: []WorkloadRef{
		{Ref: "tiny.yaml", Kind: source.KindSpec, Fingerprint: "sha256:1", Spec: "name: tiny"},
		{Ref: "request-server", Kind: source.KindWorkload, Fingerprint: "sha256:2"},
		{Ref: "run.csv", Kind: source.KindFiLiP, Fingerprint: "sha256:3"},
	}}
	ws := p.CreatedWorkloads()
	assert.Equal(t, CreatedWorkload{Ref: "tiny.yaml", Kind: source.KindSpec, Fingerprint: "sha256:1", Stored: true}, ws[0])
	var how []string
	for _, w := range ws {
		how = append(how, w.HowWorkersFindIt())
	}
	assert.Equal(t, []string{"its text is stored with the study", "bundled with gctune", "workers need this file at this path"}, how)
}

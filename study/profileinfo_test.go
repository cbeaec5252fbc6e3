package study

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
)

func TestFormatRate(t *testing.T) {
	assert.Equal(t, "1/100", FormatRate(0.01))
	assert.Equal(t, "1/1000", FormatRate(0.001))
	assert.Equal(t, "1 (every allocation)", FormatRate(1))
	assert.Equal(t, "0.3", FormatRate(0.3))
	assert.Equal(t, "0", FormatRate(0))
	assert.Equal(t, "2", FormatRate(2))
}

func TestProfileInfoLineAndText(t *testing.T) {
	p, info, err := source.Open("request-server", source.Options{Seed: 1, Resolution: 1e-3})
	require.NoError(t, err)
	d := NewProfileInfo(info, p)
	assert.Equal(t, "profile request-server: bundled workload; clock bytes (generated on the bytes clock); sampling rate "+FormatRate(p.Meta.SamplingRate), d.Line)
	assert.Equal(t, d.Line, d.FormatLine())

	f := ProfileInfo{Ref: "run#1.csv", Kind: source.KindFiLiP, Era: "FiLiP", Layout: "current", Clock: filip.ClockBytes.String(),
		ClockReason: "why", SamplingRate: 0.01, Warnings: []string{"odd \x1b[31mrow"}}
	f.Line = f.FormatLine()
	assert.Equal(t, `profile "run#1.csv": FiLiP export, era FiLiP, layout current; clock bytes (why); sampling rate 1/100`, f.Line)
	var b bytes.Buffer
	require.NoError(t, WriteProfileInfos(&b, []ProfileInfo{f, f, d}))
	assert.Equal(t, f.Line+"\n"+`warning: "run#1.csv": odd \x1b[31mrow`+"\n"+d.Line+"\n", b.String(),
		"a line said once, a warning escaped for a terminal")
}

func TestProfiledBeside(t *testing.T) {
	assert.Empty(t, ProfiledBeside(nil, &heapsim.Stats{}))
	assert.Empty(t, ProfiledBeside(&ProfiledRun{}, nil))
	assert.Equal(t, "simulated default run: 3 scavenges, 1 full GCs; "+ProfiledByFiLiP+": 5 scavenges, 2 full GCs",
		ProfiledBeside(&ProfiledRun{Scavenges: 5, FullGCs: 2, Source: ProfiledByFiLiP}, &heapsim.Stats{Scavenges: 3, FullGCs: 1}))
}

func TestNewInput(t *testing.T) {
	_, info, err := source.Open("request-server", source.Options{Seed: 7, Resolution: 1e-3})
	require.NoError(t, err)
	in := NewInput(info, source.Options{Seed: 7, Resolution: 1e-3})
	assert.Equal(t, source.KindWorkload, in.Kind)
	require.NotNil(t, in.Seed)
	require.NotNil(t, in.Resolution)
	assert.Equal(t, uint64(7), *in.Seed)
	assert.Equal(t, 1e-3, *in.Resolution)
	assert.Nil(t, in.FiLiP)
}

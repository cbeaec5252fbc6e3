package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/internal/units"
	"github.com/gctune/gctune/profilereport"
	"github.com/gctune/gctune/trialstore"
)

func TestDefaultConfigMatchesConfigYAML(t *testing.T) {
	cfg, err := loadConfig(&cobra.Command{}, "../../config.yaml")
	require.NoError(t, err)
	// The empty storage is resolved to the default database (TestDefaultStorage).
	assert.Equal(t, trialstore.Resolve(""), cfg.Storage)
	cfg.Storage = ""
	assert.Equal(t, defaultConfig(), cfg, "config.yaml and defaultConfig must agree")
	require.NoError(t, defaultConfig().Validate())
}

func TestLoadConfigWithoutFileUsesDefaults(t *testing.T) {
	t.Chdir(t.TempDir()) // no ./config.yaml here
	cfg, err := loadConfig(&cobra.Command{}, "")
	require.NoError(t, err)
	want := defaultConfig()
	want.Storage = trialstore.Resolve("")
	assert.Equal(t, want, cfg)
}

func TestLoadConfigReadsWorkingDirectoryFile(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("gctune.yaml", []byte("workload:\n  seed: 99\n"), 0o644))
	cfg, err := loadConfig(&cobra.Command{}, "")
	require.NoError(t, err)
	assert.Equal(t, uint64(99), cfg.Workload.Seed)
}

func TestConfigUnknownKeyIsRejected(t *testing.T) {
	path := writeFile(t, "c.yaml", "lifetimes:\n  long_lived_treshold: 0.1\n")
	_, errOut, code := gctune(t, "--config", path, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: config "+path+`: unknown key "lifetimes.long_lived_treshold" (did you mean "lifetimes.long_lived_threshold"?)`+"\n", errOut)

	path = writeFile(t, "c.yaml", "simulate:\n  eden_size: 16MiB\nworkload:\n  seed: 1\n")
	_, errOut, code = gctune(t, "--config", path, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, `unknown key "simulate.eden_size"`)
}

func TestConfigErrorsNameTheField(t *testing.T) {
	cases := []struct {
		yaml, want string
	}{
		{"lifetimes:\n  long_lived_threshold: 1.5\n", "config: lifetimes.long_lived_threshold = 1.5 (from PATH): must be in (0, 1]"},
		{"lifetimes:\n  clock: sundial\n", `config: lifetimes.clock = "sundial" (from PATH): must be auto, bytes or us`},
		{"lifetimes:\n  histogram_bins: 1\n", "config: lifetimes.histogram_bins = 1 (from PATH): must be in [2, 1000]"},
		{"workload:\n  resolution: 2\n", "config: workload.resolution = 2 (from PATH): must be in (0, 1]"},
		{"lifetimes:\n  histogram_bins: many\n", "lifetimes.histogram_bins"},
		{"workload: 3\n", "workload"},
		{"lifetimes: [\n", "config"},
	}
	for _, c := range cases {
		path := writeFile(t, "c.yaml", c.yaml)
		_, errOut, code := gctune(t, "--config", path, "lifetimes", "testdata/tiny.yaml")
		assert.Equal(t, cmdutil.ExitUsage, code, c.yaml)
		assert.Contains(t, errOut, strings.ReplaceAll(c.want, "PATH", path), c.yaml)
		assert.Equal(t, 1, countLines(errOut), "one line: %q", errOut)
	}
	_, errOut, code := gctune(t, "--config", "/nonexistent/gctune.yaml", "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "gctune: config /nonexistent/gctune.yaml:")
}

func countLines(s string) int {
	n := 0
	for _, r := range s {
		if r == '\n' {
			n++
		}
	}
	return n
}

// thresholdAndSeed runs `gctune lifetimes --json` on the tiny spec and returns the threshold
// and seed it used.
func thresholdAndSeed(t *testing.T, args ...string) (float64, uint64) {
	t.Helper()
	var doc profilereport.Lifetimes
	gctuneJSON(t, &doc, append([]string{"lifetimes", "--top", "0", "testdata/tiny.yaml"}, args...)...)
	require.NotNil(t, doc.Input.Seed)
	return doc.Summary.LongLivedThreshold, *doc.Input.Seed
}

func TestConfigPrecedenceFileEnvFlag(t *testing.T) {
	path := writeFile(t, "c.yaml", "workload:\n  seed: 11\nlifetimes:\n  long_lived_threshold: 0.1\n")

	th, seed := thresholdAndSeed(t)
	assert.Equal(t, 0.05, th, "built-in default")
	assert.Equal(t, uint64(1), seed)

	th, seed = thresholdAndSeed(t, "--config", path)
	assert.Equal(t, 0.1, th, "file over defaults")
	assert.Equal(t, uint64(11), seed)

	t.Setenv("GCTUNE_LIFETIMES_LONG_LIVED_THRESHOLD", "0.2")
	t.Setenv("GCTUNE_WORKLOAD_SEED", "22")
	th, seed = thresholdAndSeed(t, "--config", path)
	assert.Equal(t, 0.2, th, "environment over file")
	assert.Equal(t, uint64(22), seed)

	th, seed = thresholdAndSeed(t, "--config", path, "--threshold", "0.3", "--seed", "33")
	assert.Equal(t, 0.3, th, "flag over environment")
	assert.Equal(t, uint64(33), seed)

	// A flag left at its default does not override the environment.
	th, _ = thresholdAndSeed(t, "--config", path, "--seed", "33")
	assert.Equal(t, 0.2, th)
}

func TestEnvOverrideIsValidated(t *testing.T) {
	t.Setenv("GCTUNE_LIFETIMES_CLOCK", "sundial")
	_, errOut, code := gctune(t, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: lifetimes.clock = "sundial" (GCTUNE_LIFETIMES_CLOCK): must be auto, bytes or us`+"\n", errOut)
}

// TestRefusedValueNamesItsFlag: a value Validate refuses is named with where it came from, the
// flag the user typed first (issue 31: `--tolerance 2` said only search.tolerance), then its
// GCTUNE_ variable, then the file.
func TestRefusedValueNamesItsFlag(t *testing.T) {
	_, errOut, code := gctune(t, "lifetimes", "testdata/tiny.yaml", "--threshold", "2")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: config: lifetimes.long_lived_threshold = 2 (--threshold): must be in (0, 1], a fraction of the run\n", errOut)
	_, errOut, code = gctune(t, "export", "s", "--tolerance", "2", "--storage", filepath.Join(t.TempDir(), "s.db"))
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: config: search.tolerance = 2 (--tolerance): must be a fraction in [0, 1) (0.01 = 1 %)\n", errOut)
	t.Setenv("GCTUNE_SEARCH_TOLERANCE", "3")
	_, errOut, _ = gctune(t, "export", "s", "--storage", filepath.Join(t.TempDir(), "s.db"))
	assert.Equal(t, "gctune: config: search.tolerance = 3 (GCTUNE_SEARCH_TOLERANCE): must be a fraction in [0, 1) (0.01 = 1 %)\n", errOut)
	_, errOut, _ = gctune(t, "export", "s", "--tolerance", "4", "--storage", filepath.Join(t.TempDir(), "s.db"))
	assert.Contains(t, errOut, "search.tolerance = 4 (--tolerance)", "the flag wins over the variable, and is named")
}

func TestUnknownEnvironmentVariableIsRejected(t *testing.T) {
	t.Setenv("GCTUNE_LIFETIMES_THRESHOLD", "0.2")
	_, errOut, code := gctune(t, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: config: unknown environment variable GCTUNE_LIFETIMES_THRESHOLD (known: GCTUNE_LIFETIMES_CLOCK, "+
		"GCTUNE_LIFETIMES_HISTOGRAM_BINS, GCTUNE_LIFETIMES_LONG_LIVED_THRESHOLD, GCTUNE_LIFETIMES_REBUILD, GCTUNE_LIFETIMES_SKIP_BAD_ROWS)\n", errOut)
	assert.Equal(t, "GCTUNE_LIFETIMES_LONG_LIVED_THRESHOLD", config.EnvName("lifetimes.long_lived_threshold"))
}

// TestMistypedEnvironmentVariableIsSuggested: a GCTUNE_ variable one or two edits from a known
// one names it (issue 31), as a mistyped flag does.
func TestMistypedEnvironmentVariableIsSuggested(t *testing.T) {
	t.Setenv("GCTUNE_SEARCH_TRAILS", "5")
	_, errOut, code := gctune(t, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: config: unknown environment variable GCTUNE_SEARCH_TRAILS (did you mean GCTUNE_SEARCH_TRIALS?)\n", errOut)
}

// TestVerifyEnvironmentIsNotConfig: the variables gctune verify hands the application it runs
// are not refused as unknown configuration, so a verified command may run gctune itself.
func TestVerifyEnvironmentIsNotConfig(t *testing.T) {
	t.Setenv("GCTUNE_EDEN_FLAG", "--edenSize=64m")
	t.Setenv("GCTUNE_ST", "/tmp/gctune-best.st")
	t.Setenv("GCTUNE_CONFIG", "best")
	_, errOut, code := gctune(t, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, 0, code, errOut)
}

func TestDecodeHookParsesSizes(t *testing.T) {
	type section struct {
		Eden    units.Bytes   `mapstructure:"eden"`
		Plain   units.Bytes   `mapstructure:"plain"`
		Timeout time.Duration `mapstructure:"timeout"`
	}
	v := viper.New()
	v.Set("eden", "16MiB")
	v.Set("plain", 4096)
	v.Set("timeout", "90s")
	var s section
	require.NoError(t, v.UnmarshalExact(&s, decodeHook()))
	assert.Equal(t, section{Eden: 16 << 20, Plain: 4096, Timeout: 90 * time.Second}, s)

	v.Set("eden", "16 furlongs")
	assert.ErrorContains(t, v.UnmarshalExact(&s, decodeHook()), "unknown unit")
}

func TestBindFlagPanicsOnUnknownFlag(t *testing.T) {
	assert.Panics(t, func() { cmdutil.BindFlag(&cobra.Command{Use: "x"}, "nope", "a.b") })
}

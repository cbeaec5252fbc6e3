package studies

import (
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"
)

func TestProfScratch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.db")
	store := openT(t, path, OpenOptions{})
	st := newStudy(t, store, "p", 1)
	if err := st.Optimize(objective5, 1000); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create("/tmp/studies-work/cpu2.out")
	pprof.StartCPUProfile(f)
	t0, c0 := time.Now(), cpuTime()
	if err := st.Optimize(objective5, 100); err != nil {
		t.Fatal(err)
	}
	pprof.StopCPUProfile()
	t.Logf("wall %v/trial cpu %v/trial", time.Since(t0)/100, (cpuTime()-c0)/100)
}

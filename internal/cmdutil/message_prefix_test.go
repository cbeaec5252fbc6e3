package cmdutil

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPackagePrefixesComplete: every package of gctune that starts an error with its own
// name ("study: ...") has that prefix in PackagePrefixes, so the user never reads where in the
// code an error arose. Test-only packages (internal/pgtest, internal/chromium, internal/plotkit)
// and config (whose prefix names the user's configuration) are exempt.
func TestPackagePrefixesComplete(t *testing.T) {
	exempt := []string{"main", "config", "pgtest", "chromium", "plotkit"}
	root := filepath.Join("..", "..")
	names := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "scripts") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly)
		if err != nil {
			return err
		}
		name := f.Name.Name
		if slices.Contains(exempt, name) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if regexp.MustCompile(`"` + regexp.QuoteMeta(name) + `: `).Match(src) {
			names[name] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range names {
		if !slices.Contains(PackagePrefixes(), name+": ") {
			t.Errorf("package %s writes errors prefixed %q, which PackagePrefixes does not drop", name, name+": ")
		}
	}
}

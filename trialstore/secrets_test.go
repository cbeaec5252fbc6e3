package trialstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUnparseablePostgresURLHidesPassword: a URL that does not parse (or parses to another user
// info than its text says) is refused without its password, whatever the password holds
// (issue 11.3: the parser's error quoted the raw URL).
func TestUnparseablePostgresURLHidesPassword(t *testing.T) {
	for _, c := range []struct{ url, secret string }{
		{"postgres://u:SECRET%zzPW3@host/db", "SECRET"},
		{"postgres://u:SECRET%zzPW3@host/db", "zzPW3"},
		{"postgres://u:sec ret1@host/db", "sec ret1"},
		{"postgres://u:sec/ret1@host/db", "ret1"},
		{"postgres://u:sec?ret1@host/db", "ret1"},
		{"postgres://u:sec#ret1@host/db", "ret1"},
		{"postgres://u:sec#ret1@host/db", "sec"},
		{"postgres://u:1234#ret1@host/db", "1234"},
		{"postgresql://u:a@b/c@host/db", "b/c"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := Open(ctx, c.url, OpenOptions{ConnectTimeout: time.Second})
		cancel()
		if err == nil {
			t.Errorf("Open(%q): no error", c.url)
			continue
		}
		if strings.Contains(err.Error(), c.secret) {
			t.Errorf("Open(%q): error shows %q: %v", c.url, c.secret, err)
		}
		if !strings.Contains(err.Error(), "xxxxx") || !strings.Contains(err.Error(), "PGPASSWORD") {
			t.Errorf("Open(%q): error does not show the redacted URL and the hint: %v", c.url, err)
		}
	}
}

// TestRedactURL: the password goes, wherever the URL or keyword string holds it. It is masked
// where it stands, so a password that is also a word of the message ("p", "postgres") does not
// garble the rest (issue 11.3).
func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://gctune:s3cret@db.example:5432/gctune?sslmode=disable",
			"postgres://gctune:xxxxx@db.example:5432/gctune?sslmode=disable"},
		{"postgres://gctune@db/gctune", "postgres://gctune@db/gctune"},
		{"postgresql://db/gctune?password=s3cret&sslmode=require",
			"postgresql://db/gctune?password=xxxxx&sslmode=require"},
		{"host=db user=u password=s3cret dbname=g", "host=db user=u password=xxxxx dbname=g"},
		{"host=db password='s3 cret' dbname=g", "host=db password=xxxxx dbname=g"},
		{"gctune.db", "gctune.db"},
		{"sqlite:///tmp/x.db", "sqlite:///tmp/x.db"},
		{"postgres://u:p%20w@h/db", "postgres://u:xxxxx@h/db"},
		{"postgres://postgres:postgres@postgres/postgres", "postgres://postgres:xxxxx@postgres/postgres"},
		{"postgres://p:p@p/p?sslmode=disable", "postgres://p:xxxxx@p/p?sslmode=disable"},
		{"postgres://u:SECRET%zzPW3@host/db", "postgres://u:xxxxx@host/db"},
		{"postgres://u:a b/c?d#e@host/db", "postgres://u:xxxxx@host/db"},
		{"postgres://u@host/db?sslpassword=abc&x=1", "postgres://u@host/db?sslpassword=xxxxx&x=1"},
		// Issue 22's shapes: no host, the scheme without slashes, a query value with a space
		// or '#', a percent-encoded or undecodable key.
		{"postgres://u:Pw9xQz", "postgres://u:xxxxx"},
		{"postgres://u:Pw/9xQz", "postgres://u:xxxxx"},
		{"postgres://h:5432/db", "postgres://h:5432/db"},
		{"postgres://[::1]:5432/db", "postgres://[::1]:5432/db"},
		{"postgres:/u:Pw9xQz@127.0.0.1:1/db", "postgres:/u:xxxxx@127.0.0.1:1/db"},
		{"postgres:u:Pw9xQz@127.0.0.1:1/db", "postgres:u:xxxxx@127.0.0.1:1/db"},
		{"postgres:u:Pw9xQz", "postgres:u:xxxxx"},
		{"postgres://u@h/db?password=abc Pw9xQz", "postgres://u@h/db?password=xxxxx"},
		{"postgres://u@h/db?password=abc#Pw9xQz&sslmode=disable", "postgres://u@h/db?password=xxxxx&sslmode=disable"},
		{"postgres://u@h/db?pass%77ord=Pw9xQz", "postgres://u@h/db?pass%77ord=xxxxx"},
		{"postgres://u@h/db?PASSWORD=Pw9xQz", "postgres://u@h/db?PASSWORD=xxxxx"},
		{"postgres://u@h/db?pa%zzss=Pw9xQz", "postgres://u@h/db?pa%zzss=xxxxx"},
		{"sqlite:///tmp/x.db?mode=ro", "sqlite:///tmp/x.db?mode=ro"},
	} {
		if got := RedactURL(c.in); got != c.want {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Not parseable as a URL: the password still goes.
	if got := RedactURL("postgres://u:s3cret@h:badport/db"); strings.Contains(got, "s3cret") {
		t.Errorf("RedactURL kept the password of an unparseable URL: %q", got)
	}
}

// TestLibpqKeywordStringRefused: "host=... password=..." is refused, never opened (created) as a
// SQLite file of that name, and the error hides the password.
func TestLibpqKeywordStringRefused(t *testing.T) {
	dir := t.TempDir()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	for _, s := range []string{"host=localhost password=hunter2 dbname=g", "dbname=g user=u password='hunter2'"} {
		_, err := Open(context.Background(), s, OpenOptions{})
		if err == nil {
			t.Fatalf("Open(%q): no error", s)
		}
		if strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "libpq keyword string") {
			t.Errorf("Open(%q) = %v", s, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) > 0 {
		t.Errorf("files created: %v", entries)
	}
}

// TestOpenDirectory: a directory as the database says so (SQLite said "out of memory (14)").
func TestOpenDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d.db")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), dir, OpenOptions{})
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Open(directory) = %v", err)
	}
}

// TestOpenCorrupt: a file that is not a SQLite database is an error naming the file.
func TestOpenCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 300)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path, OpenOptions{MustExist: true})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "not a database") {
		t.Errorf("Open(corrupt) = %v", err)
	}
	if !errors.Is(err, ErrCorrupt) {
		t.Errorf("Open(corrupt) = %v, does not match ErrCorrupt", err)
	}
}

// TestUnreachableMessageNotGarbled: a password that is also a word of the driver's message
// ("postgres") leaves that message alone (issue 11.3: search-and-replace garbled it).
func TestUnreachableMessageNotGarbled(t *testing.T) {
	port, err := openUnreachable(t, "postgres://postgres:postgres@127.0.0.1:%d/postgres?sslmode=disable&connect_timeout=2")
	msg := err.Error()
	want := fmt.Sprintf("trialstore: cannot connect to postgres://postgres:xxxxx@127.0.0.1:%d/postgres?sslmode=disable", port)
	if !strings.HasPrefix(msg, want) {
		t.Errorf("error = %s\nwant prefix %s", msg, want)
	}
	if strings.Count(msg, "xxxxx") != 1 {
		t.Errorf("the driver's message is garbled: %s", msg)
	}
}

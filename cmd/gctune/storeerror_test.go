package main

import (
	"net"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRefusedPostgresConnectionSaysItOnce: a PostgreSQL server that refuses the connection
// (a loopback port this test held and closed, so nothing listens on it) is one line with the
// dial error once, though pgx tries the server twice (TLS, then plain) and joins both errors
// (issue 31).
func TestRefusedPostgresConnectionSaysItOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	_, errOut, code := gctune(t, "studies", "list", "--storage", "postgres://u@"+addr+"/db?connect_timeout=2")
	assert.Equal(t, cmdutil.ExitUsage, code, errOut)
	assert.Equal(t, 1, strings.Count(errOut, "connection refused"), errOut)
	assert.Contains(t, errOut, "cannot connect to postgres://u@"+addr+"/db")
	assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
}

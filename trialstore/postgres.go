package trialstore

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

func openPostgres(ctx context.Context, rawURL string, opts OpenOptions) (*Store, error) {
	redacted := RedactURL(rawURL)
	if err := checkPostgresURL(rawURL); err != nil {
		return nil, err
	}
	db, err := gorm.Open(postgres.New(postgres.Config{DSN: rawURL}), gormConfig())
	if err != nil {
		return nil, fmt.Errorf("trialstore: bad PostgreSQL URL %s: %s", redacted, driverParseReason(rawURL, err))
	}
	s := &Store{db: db, url: redacted, dialect: Postgres}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("trialstore: %s: %w", redacted, err)
	}
	pingCtx, cancel := context.WithTimeout(ctx, opts.ConnectTimeout)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		_ = sqlDB.Close()
		return nil, &unreachableError{url: redacted, err: err}
	}
	if opts.ReadOnly {
		if ok, err := s.schemaComplete(db.WithContext(ctx)); err != nil || !ok {
			_ = s.Close()
			if err == nil {
				return nil, &sentinelError{msg: fmt.Sprintf("trialstore: %s is not a gctune study database (no study tables)", redacted), is: ErrNotStudies}
			}
			return nil, fmt.Errorf("trialstore: %s: %w", redacted, err)
		}
		return s, nil
	}
	if err := s.migratePostgres(ctx, sqlDB); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// checkPostgresURL refuses a PostgreSQL URL that does not parse, or that parses to another
// user info than its text says (an unencoded '#' or '/' in the password), with a message that
// quotes only the redacted URL: the parser's own error would quote the password.
func checkPostgresURL(rawURL string) error {
	redacted := RedactURL(rawURL)
	hint := "percent-encode special characters in the password (%20 space, %2F /, %3F ?, %23 #, %25 %, %40 @), " +
		"or leave the password out of the URL and set PGPASSWORD"
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("trialstore: bad PostgreSQL URL %s: not a valid URL; %s", redacted, hint)
	}
	if strings.Contains(rawURL, "#") {
		return fmt.Errorf("trialstore: bad PostgreSQL URL %s: '#' has no meaning in it; %s", redacted, hint)
	}
	if start, end, ok := passwordSpan(rawURL); ok {
		want, err := url.PathUnescape(rawURL[start:end])
		got, has := u.User.Password()
		if err != nil || !has || got != want {
			return fmt.Errorf("trialstore: bad PostgreSQL URL %s: the user info is ambiguous; %s", redacted, hint)
		}
	}
	return nil
}

// driverParseReason returns why the driver could not parse rawURL, without the URL: pgconn's
// ParseConfigError quotes the connection string, masking only a user-info password (not a
// query's). When even that reason holds a password of rawURL, it says only that the driver
// cannot use the URL.
func driverParseReason(rawURL string, err error) string {
	reason := err.Error()
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		bare := *pe
		bare.ConnString = ""
		reason = strings.TrimPrefix(bare.Error(), "cannot parse ``: ")
	}
	for _, secret := range urlSecrets(rawURL) {
		if strings.Contains(reason, secret) {
			return "the PostgreSQL driver cannot use it"
		}
	}
	return reason
}

// Command local runs the whole of Galley on one machine: every family on one
// listener, the embedded bbolt store and blobs under DATA_DIR, and the
// workers in-process. It is configured from the environment (ADDR,
// DATA_DIR, BOOTSTRAP_TOKEN, ...; see app.ConfigFromEnv) and stops cleanly
// on SIGINT or SIGTERM. An invalid variable stops the start: the message
// names it and the exit status is 1.
//
//	ADDR=127.0.0.1:8080 DATA_DIR=./.data go run ./functions/local
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/galleydocs/galley/shared/app"
	"github.com/galleydocs/galley/shared/app/local"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "galley:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	cfg, err := app.ConfigFromEnv()
	if err != nil {
		return err
	}
	l, err := local.Open(ctx, cfg)
	if err != nil {
		return fmt.Errorf("open %s: %w", cfg.DataDir, err)
	}
	defer l.Close()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	l.Deps.Logger.Info("listening", "addr", "http://"+ln.Addr().String(), "dataDir", cfg.DataDir, "version", app.Version)
	if err := l.Serve(ctx, ln); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	l.Deps.Logger.Info("stopped")
	return nil
}

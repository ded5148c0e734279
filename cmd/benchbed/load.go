package main

import (
	"benchbed/plan"
	"benchbed/plan/scenario"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"benchbed/load"
	"benchbed/results"
	"benchbed/results/metrics"
	"benchbed/templates"
	"github.com/spf13/cobra"
)

func init() { register(newLoadCmd) }

// loadCmdFlags are `benchbed load`'s options.
type loadCmdFlags struct {
	scenario   string
	auth       load.AuthSpec
	users      int
	operations int64
	rate       float64
	keep       bool
	verify     bool
	json       bool
	procs      int
	cpuProfile string  // pprof CPU profile of the measured phase ("": none)
	initial    string  // upload, check or skip
	maxErrors  float64 // the error-rate gate, a share of all operations
	fill       results.FillSpec
	auto       autoFlags   // --duration, --warmup and their limits
	search     searchFlags // --search and its range
	s3         s3Flags     // --api s3 and its endpoint and keys
	replay     replayFlags // --replay LOG and its options
	metrics    metricsFlags
}

func newLoadCmd() *cobra.Command {
	var f loadCmdFlags
	cmd := &cobra.Command{
		Use:   "load (--scenario FILE | --replay LOG...) (--auth-url URL --user U --key K | --storage-url URL --token T | --api s3 --endpoint URL --access-key K --secret-key S)",
		Short: "Run one ssbench scenario from this machine against a Swift or S3 endpoint (no SSH)",
		Long: "Runs an ssbench scenario in-process as ssbench does and prints the ssbench-style table (time to first\n" +
			"byte, req/s, errors), or with --json the summary cell. First, unmeasured, the scenario's initial\n" +
			"files are put where a listing of its containers does not find them (progress on stderr); they\n" +
			"are kept afterwards, so a second run starts at once (--initial check refuses to run when any is\n" +
			"missing, --initial skip assumes them). Then the measured phase; at its end the initial files its\n" +
			"deletes took are put back and the objects it created are deleted, unless --keep. The scenario's\n" +
			"policy names and creates its containers; its delete_after is sent with the measured run's\n" +
			"writes (initial files do not expire: they are the next run's too). A segment_size in the\n" +
			"scenario makes the size classes at or above it large objects (segments, then a manifest).\n" +
			"--verify checks every GET's body against the generated content benchbed writes.\n" +
			"With --fill-objects N (a create-only scenario) the run is a fill experiment: it PUTs until each of the\n" +
			"scenario's containers holds N objects and reports PUT latency by the containers' fill, in\n" +
			"--fill-buckets equal buckets (the containers must start empty).\n" +
			"With --storage-url and --token no auth is done, so any HTTP server can be the target (with\n" +
			"--initial skip). The key and token may also come from the environment (BENCHBED_AUTH_KEY,\n" +
			"BENCHBED_TOKEN); they are never printed.\n" +
			"With --api s3 the same scenario goes to any S3 endpoint (Swift's s3api too), SigV4-signed: its containers\n" +
			"become buckets (lower case, '-' for '_'), its large size classes multipart uploads, its initial files\n" +
			"are listed with ListObjectsV2; the keys may come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, the\n" +
			"endpoint and region from AWS_ENDPOINT_URL and AWS_REGION. Failures are counted by S3 error code (s3_SlowDown...).\n" +
			"With --replay LOG (Swift proxy access logs, repeatable) the logs' client object requests are replayed\n" +
			"open-loop at their logged times (--speed faster), on hashed names in the containers\n" +
			"replay_000000.., after the objects they read before writing are put with their logged sizes;\n" +
			"the table sets each method's latency beside the logged request_time.\n" +
			"Exit status: 0 ok; 1 an error, or more failed operations than --max-error-rate (the table and\n" +
			"JSON say failed, with the top causes); 130 interrupted.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLoadCmd(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.scenario, "scenario", "", "ssbench scenario file (JSON)")
	fl.StringVar(&f.auth.URL, "auth-url", "", "auth v1.0 URL, or a Keystone v3 URL with --project")
	fl.StringVar(&f.auth.User, "user", "", "user (v1.0: account:user)")
	fl.StringVar(&f.auth.Key, "key", "", "key or password (or BENCHBED_AUTH_KEY)")
	fl.StringVar(&f.auth.Project, "project", "", "Keystone v3 project: selects Keystone v3 auth")
	fl.StringVar(&f.auth.Domain, "domain", "", "Keystone v3 user and project domain (default \"Default\")")
	fl.StringVar(&f.auth.StorageURL, "storage-url", "", "storage URL, used with --token instead of auth")
	fl.StringVar(&f.auth.Token, "token", "", "auth token for --storage-url (or BENCHBED_TOKEN)")
	fl.IntVar(&f.users, "users", 0, "concurrent users (default: the scenario's user_count)")
	fl.Var(&f.auto.duration, "duration", "run time, or auto: until req/s is known within --precision (default: the scenario's run_seconds)")
	fl.Var((*rateFlag)(&f.auto.precision), "precision", "duration auto: the 95% confidence interval of req/s (batch means) within this share of it")
	f.auto.precision = 0.02
	fl.DurationVar(&f.auto.maxDuration, "max-duration", time.Hour, "duration auto: the longest measured run")
	fl.Var(&f.auto.warmup, "warmup", "an unmeasured warm-up first (before each probe with --search): a duration, or auto: until req/s and p99 per second are steady")
	fl.DurationVar(&f.auto.maxWarmup, "max-warmup", 2*time.Minute, "warmup auto: the longest warm-up")
	fl.StringVar(&f.search.slo, "search", "", "capacity search: the highest open-loop rate meeting this SLO, as 'first_byte_p99<50ms,errors<0.1%'")
	fl.Float64Var(&f.search.from, "search-from", 10, "capacity search: the lowest rate (req/s)")
	fl.Float64Var(&f.search.to, "search-to", 10000, "capacity search: the highest rate (req/s)")
	fl.DurationVar(&f.search.probe, "probe", 20*time.Second, "capacity search: each probe's measured length")
	f.search.resolution = 0.05
	fl.Var((*rateFlag)(&f.search.resolution), "resolution", "capacity search: stop when the rates passed and failed are this close")
	fl.Int64Var(&f.operations, "operations", 0, "operations to run when there is no duration")
	fl.Float64Var(&f.rate, "rate", 0, "open loop: operations per second in all (default: closed loop)")
	fl.BoolVar(&f.keep, "keep", false, "keep the objects the measured run creates (-k of ssbench)")
	fl.BoolVar(&f.verify, "verify", false, "check every GET's body against what benchbed wrote; a difference is an error of cause corrupt")
	fl.StringVar(&f.initial, "initial", "upload", "the scenario's initial files: upload (where missing), check (refuse when missing) or skip")
	f.maxErrors = plan.DefaultMaxError
	fl.Var((*rateFlag)(&f.maxErrors), "max-error-rate", "fail when more operations than this failed: a share (0.01) or a percentage (1%)")
	fl.Int64Var(&f.fill.Objects, "fill-objects", 0, "fill run: PUT into the scenario's containers until each holds this many objects (a create-only scenario), latency by fill")
	fl.IntVar(&f.fill.Buckets, "fill-buckets", 10, "fill run: equal buckets of the fill target the latency is reported by")
	fl.BoolVar(&f.json, "json", false, "print the summary cell as JSON")
	fl.IntVar(&f.procs, "procs", 0, "Go processors for the load (default: one per 1024 users, at most half the CPUs)")
	fl.StringVar(&f.cpuProfile, "cpuprofile", "", "write a pprof CPU profile of the measured phase to this file")
	f.s3.add(fl)
	addReplayFlags(fl, &f.replay)
	f.metrics.add(fl)
	return cmd
}

func runLoadCmd(cmd *cobra.Command, f loadCmdFlags) error {
	if f.initial != "upload" && f.initial != "check" && f.initial != "skip" {
		return usagef(cmd, "--initial %q: want upload, check or skip", f.initial)
	}
	switch {
	case len(f.replay.logs) > 0 && f.scenario != "":
		return usagef(cmd, "--scenario and --replay: give one")
	case len(f.replay.logs) > 0 && f.s3.api != "swift":
		return usagef(cmd, "--replay replays Swift proxy logs through Swift's API: not with --api %s", f.s3.api)
	case len(f.replay.logs) > 0:
		return runReplay(cmd, f)
	case f.scenario == "":
		return usagef(cmd, "--scenario FILE or --replay LOG is needed")
	}
	data, err := templates.ReadBounded(f.scenario)
	if err != nil {
		return inputError(err)
	}
	s, err := scenario.ParseFile(f.scenario, data)
	if err != nil {
		return inputError(err)
	}
	if f.auth.Key == "" && f.auth.URL != "" {
		f.auth.Key = os.Getenv("BENCHBED_AUTH_KEY")
	}
	if f.auth.Token == "" && f.auth.StorageURL != "" {
		f.auth.Token = os.Getenv("BENCHBED_TOKEN")
	}
	users := f.users
	if users <= 0 {
		users = s.UserCount
	}
	var fill *results.FillSpec
	if f.fill.Objects > 0 {
		fill = &f.fill
	}
	defer load.SetMemoryLimit(users, fill)()
	defer load.SetProcs(f.procs, users)()
	if f.auth.S3, err = f.s3.resolve(f.auth); err != nil {
		return usagef(cmd, "%w", err)
	}
	client, err := f.auth.NewClient(users)
	if err != nil {
		return usagef(cmd, "%w (flags --auth-url --user --key, or --storage-url --token)", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lm, err := startMetrics(ctx, f.metrics, loadState(s.Name))
	if err != nil {
		return err
	}
	defer lm.close(cmd.ErrOrStderr())
	endpoint := f.auth.URL + f.auth.StorageURL
	if f.auth.S3 != nil {
		endpoint = f.auth.S3.Endpoint
	}
	if err := loadInitial(ctx, cmd.ErrOrStderr(), s, loadStore(f.auth, client, s.Policy), users, f.initial); err != nil {
		return interrupted(ctx, err)
	}
	cfg := load.Config{Scenario: s, Client: client,
		Users: users, Operations: f.operations, Rate: f.rate, Keep: f.keep, Verify: f.verify}
	cfg.Fill = fill
	if f.search.slo != "" {
		return runSearch(ctx, cmd.OutOrStdout(), cmd.ErrOrStderr(), s.Name, cfg, f, lm.probes(endpoint))
	}
	wcfg := cfg
	if f.auto.warmup.set() {
		wcfg = lm.phase(cfg, metrics.PhaseWarmup, endpoint)
	}
	if err := warmUp(ctx, cmd.ErrOrStderr(), wcfg, f.auto); err != nil {
		return interrupted(ctx, err)
	}
	stopProfile, err := startCPUProfile(f.cpuProfile)
	if err != nil {
		return err
	}
	res, stopped, err := measure(ctx, lm.phase(cfg, metrics.PhaseRun, endpoint), f.auto)
	if res != nil {
		lm.measured(res.Duration)
	}
	if perr := stopProfile(); perr != nil {
		fmt.Fprintln(cmd.ErrOrStderr(), "benchbed:", perr)
	}
	if res == nil {
		return interrupted(ctx, err)
	}
	return reportLoad(ctx, cmd, s.Name, res, err, stopped, users, f)
}

// reportLoad says what the run's end did, prints its cell (failed when its
// error rate is above the gate) and returns the command's verdict: runErr
// (an interrupt), every operation failed, or the gate's.
func reportLoad(ctx context.Context, cmd *cobra.Command, name string, res *load.Result, runErr error, stopped string, users int, f loadCmdFlags) error {
	stderr := cmd.ErrOrStderr()
	if res.Restored > 0 {
		fmt.Fprintf(stderr, "benchbed: put back %d initial files the measured run deleted\n", res.Restored)
	}
	if res.Cleanup != nil {
		fmt.Fprintln(stderr, "benchbed:", res.Cleanup)
	}
	cell := res.Cell(name)
	cell.Stopped = stopped
	if runErr != nil {
		cell.Status = results.StatusInterrupted
	}
	gate := results.Gate(&cell, f.maxErrors)
	if err := printLoadCell(cmd.OutOrStdout(), cell, users, f.json); err != nil {
		return err
	}
	switch {
	case runErr != nil:
		return interrupted(ctx, runErr)
	case cell.Total.Count == 0 && cell.Total.Errors > 0:
		return fmt.Errorf("every operation failed: %s%s", errorList(cell.Total.ErrorsBy), s3Hints(cell.Total.ErrorsBy))
	case gate != nil:
		return fmt.Errorf("the run failed: %w", gate)
	}
	return nil
}

// printLoadCell prints the cell as the ssbench-style table or as JSON.
func printLoadCell(w io.Writer, c results.Cell, users int, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	title := fmt.Sprintf("%s; %d users; %.1f s", c.Workload, users, c.DurationS)
	rows := results.CellRows(c)
	for i := range rows {
		rows[i].Failed = !c.OK()
	}
	if err := results.WriteTable(w, title, rows); err != nil {
		return err
	}
	if len(c.Fill) > 0 {
		if _, err := fmt.Fprintf(w, "\nPUT latency by the containers' fill (target %d objects a container)\n\n", results.FillTarget(c.Fill)); err != nil {
			return err
		}
		if err := results.WriteFillTable(w, c.Fill); err != nil {
			return err
		}
	}
	if c.Stopped != "" {
		if _, err := fmt.Fprintf(w, "stopped: %s\n", c.Stopped); err != nil {
			return err
		}
	}
	if !c.OK() {
		if _, err := fmt.Fprintf(w, "%s: %s\n", c.Status, c.Error); err != nil {
			return err
		}
	}
	if len(c.Total.ErrorsBy) > 0 {
		_, err := fmt.Fprintf(w, "errors: %s\n", errorList(c.Total.ErrorsBy))
		return err
	}
	return nil
}

// errorList renders error counts as "http_503=2 transport_timeout=1".
func errorList(m map[string]int64) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%d", k, m[k])
	}
	return b.String()
}

package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/moviemock/moviemock/fixtures"
	"github.com/moviemock/moviemock/internal/framework"
	"github.com/moviemock/moviemock/internal/model"
	"github.com/moviemock/moviemock/mock"
	"github.com/moviemock/moviemock/scenarios"
)

// sources are the files serve answers from: fixtures (or generated or
// embedded data) and scenarios (shipped, plus a folder).
type sources struct {
	model     *model.Model // the contract
	fixtures  string
	adapt     bool // --adapt-fixtures
	scenarios string
	gen       *generateOpts
}

// data loads the data set: a fixture directory, generated, or embedded.
func (s *sources) data() (*fixtures.Dataset, string, error) {
	if s.model == nil {
		m, err := model.Embedded()
		if err != nil {
			return nil, "", err
		}
		s.model = m
	}
	switch {
	case s.fixtures != "":
		d, err := loadFixtures(s.fixtures, s.model, s.adapt)
		return d, "fixtures from " + s.fixtures, err
	case s.gen.enabled:
		opts, err := s.gen.options(s.model)
		if err != nil {
			return nil, "", err
		}
		d, err := fixtures.Generate(s.model, opts)
		return d, fmt.Sprintf("generated data (seed %d)", s.gen.seed), err
	}
	d, err := fixtures.LoadDefault(s.model)
	if err != nil {
		return d, "", err
	}
	// Another contract takes of the embedded data what its schemas accept.
	switch empty := len(d.Empty()); {
	case len(s.model.Collections) == 0:
		return d, "no records (this contract has no collections: its operations are answered from their schemas and examples)", nil
	case empty == len(s.model.Collections) && s.model.Framework != framework.FastAPI:
		// A document of another framework: a frontend pointed at it
		// expects records to list and read, as a mock answering from
		// examples shows some. FastAPI's documents keep starting empty,
		// as the app the corpus compares them with does.
		opts, err := s.gen.options(s.model)
		if err == nil {
			var g *fixtures.Dataset
			if g, err = fixtures.Generate(s.model, opts); err == nil {
				return g, fmt.Sprintf("generated data (seed %d; the embedded default data fits none of this contract's collections, --fixtures DIR serves your own)", s.gen.seed), nil
			}
		}
		return d, fmt.Sprintf("no records (the embedded default data fits none of this contract's collections, and generating some failed: %v)", err), nil
	case empty == len(s.model.Collections):
		return d, "no records (the embedded default data fits none of this contract's collections; --generate makes some)", nil
	case empty > 0:
		return d, "the embedded default data, where this contract's schemas take it", nil
	}
	return d, "the embedded default data", nil
}

// load loads the data set and the scenarios checked against it; source
// says where the data came from.
func (s *sources) load() (data *fixtures.Dataset, source string, set *scenarios.Set, err error) {
	if data, source, err = s.data(); err != nil {
		return nil, "", nil, err
	}
	set, err = s.scenarioSet(data)
	return data, source, set, err
}

// scenarioSet loads the shipped scenarios and the folder's, checked
// against data.
func (s *sources) scenarioSet(data *fixtures.Dataset) (*scenarios.Set, error) {
	sp := data.Model.Spec
	srcs := []scenarios.Source{scenarios.ShippedFor(sp)}
	if s.scenarios != "" {
		src, err := scenarios.Dir(s.scenarios)
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, src)
	}
	return scenarios.Load(sp, data, srcs...)
}

// stamps sum up the watched folders at one moment.
type stamps struct{ fixtures, scenarios string }

// stamp sums up the watched folders. serve takes it before it loads them,
// so an edit made while they load, or before the watcher first runs, is
// still told apart from what was loaded.
func (s *sources) stamp() stamps {
	return stamps{stamp(s.fixtures), stamp(s.scenarios)}
}

// watch polls the fixture and scenario folders every interval and reloads
// what changed since seen into srv (see watcher.look).
func (s *sources) watch(ctx context.Context, seen stamps, interval time.Duration, srv *mock.Server, log *slog.Logger) {
	w := &watcher{files: s, srv: srv, log: log, seen: seen, last: seen}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.look()
	}
}

// vanishedLooks is how many looks a file that is served may stay missing
// before its removal is accepted: an editor or a tool saving it may delete
// it and write it anew.
const vanishedLooks = 3

// watcher reloads the watched folders into a server, one look at a time.
type watcher struct {
	files *sources
	srv   *mock.Server
	log   *slog.Logger
	seen  stamps // what is served
	last  stamps // what the previous look found
	gone  int    // looks that found a served file missing
}

// look compares the folders with what is served and reloads them if they
// changed and have stopped changing: the same stamp on two looks in a row,
// so a file caught half-written (which may well parse, as a shorter list)
// is not served. A file that is served and has vanished is given
// vanishedLooks more looks to come back. Files that do not load are
// logged with where they went wrong, and what they would replace keeps
// serving: broken fixtures keep the previous data, broken scenarios the
// previous scenarios (new data is served with them). It reports whether
// it reloaded.
func (w *watcher) look() bool {
	now := w.files.stamp()
	if now == w.seen {
		w.last, w.gone = now, 0
		return false
	}
	if now != w.last { // still changing
		w.last, w.gone = now, 0
		return false
	}
	if vanished(w.seen.fixtures, now.fixtures) || vanished(w.seen.scenarios, now.scenarios) {
		if w.gone < vanishedLooks {
			w.gone++
			return false
		}
	}
	w.gone = 0
	var data *fixtures.Dataset
	if now.fixtures != w.seen.fixtures {
		d, _, err := w.files.data()
		if err != nil {
			logProblems(w.log, "fixtures not reloaded; still serving the previous data", err)
		}
		data = d
	}
	var set *scenarios.Set
	if data != nil || now.scenarios != w.seen.scenarios {
		// Scenarios render fixtures, so new data reloads them too.
		var err error
		if set, err = w.files.scenarioSet(orCurrent(data, w.srv)); err != nil {
			logProblems(w.log, "scenarios not reloaded; still serving the previous ones", err)
		}
	}
	w.seen = now // a failure is retried at the next edit
	if data == nil && set == nil {
		return false
	}
	w.srv.Reload(data, set)
	w.log.Info("reloaded", "fixtures", data != nil, "scenarios", set != nil)
	if data != nil && len(data.Adapted) > 0 {
		// As the banner says at start-up: nothing is adapted silently.
		changes := make([]string, 0, min(len(data.Adapted), maxListedLines+1))
		for i, a := range data.Adapted {
			if i == maxListedLines {
				changes = append(changes, fmt.Sprintf("… and %d more", len(data.Adapted)-i))
				break
			}
			changes = append(changes, a.String())
		}
		w.log.Info("fixtures adapted to this contract (--adapt-fixtures)", "changes", strings.Join(changes, "; "))
	}
	return true
}

// vanished reports whether a folder stamped now lacks a file it had when
// stamped before, or cannot be read any more.
func vanished(before, now string) bool {
	if before == now || before == "" {
		return false
	}
	if !strings.HasPrefix(now, stampHeader) {
		return true
	}
	names := map[string]bool{}
	for _, line := range strings.Split(now, "\n") {
		if name, err := strconv.QuotedPrefix(line); err == nil {
			names[name] = true
		}
	}
	for _, line := range strings.Split(before, "\n") {
		if name, err := strconv.QuotedPrefix(line); err == nil && !names[name] {
			return true
		}
	}
	return false
}

func orCurrent(d *fixtures.Dataset, srv *mock.Server) *fixtures.Dataset {
	if d != nil {
		return d
	}
	return srv.Data()
}

// hashBelow is the size under which a file's contents are part of its
// stamp. A modification time moves in clock ticks of a few milliseconds, so
// two edits of the same length within one tick look alike by size and time;
// hand-written files are small and cheap to read. A larger file, which may
// be hundreds of megabytes, is told by name, size and time alone.
const hashBelow = 1 << 20

// stampHeader starts the stamp of a folder that could be read, one line a
// file, its name quoted; a folder that cannot be read is stamped with the
// error.
const stampHeader = "folder\n"

// stamp sums up a folder's data files: names, sizes, modification times,
// and the contents of files under hashBelow. "" for no folder.
func stamp(dir string) string {
	if dir == "" {
		return ""
	}
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	b.WriteString(stampHeader)
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if e.IsDir() || ext != ".yaml" && ext != ".yml" && ext != ".json" {
			continue
		}
		info, err := e.Info()
		if err != nil {
			fmt.Fprintf(&b, "%q %v\n", e.Name(), err)
			continue
		}
		fmt.Fprintf(&b, "%q %d %d", e.Name(), info.Size(), info.ModTime().UnixNano())
		if info.Size() < hashBelow {
			if text, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil {
				fmt.Fprintf(&b, " %x", sha256.Sum256(text))
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// logProblems logs err under msg: its first line, then each problem of a
// list of them (fixture records, scenario files) as a line of its own, so
// that a logfmt or JSON log keeps one problem a record.
func logProblems(log *slog.Logger, msg string, err error) {
	var list interface{ Unwrap() []error }
	if !errors.As(err, &list) || len(list.Unwrap()) == 0 {
		log.Error(msg, "error", err.Error())
		return
	}
	problems := list.Unwrap()
	summary, _, _ := strings.Cut(err.Error(), "\n")
	log.Error(msg, "error", summary)
	for i, p := range problems {
		log.Error(msg, "problem", i+1, "of", len(problems), "error", p.Error())
	}
}

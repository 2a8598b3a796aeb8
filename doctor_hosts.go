package main

// doctor's checks of the Codex CLI, Gemini CLI and Copilot CLI
// registrations: not only whether a file names safezone, but whether the
// host will run that hook (issues 22 and 30): Codex skips an untrusted hook
// and an untrusted project's .codex/ without a word; Gemini CLI drops a
// project's hooks in an untrusted folder and with --skip-trust; Copilot
// CLI drops a project's .github/hooks in prompt mode in an untrusted
// folder; any may have hooks turned off.

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/safezonehq/safezone/hookio"
	"github.com/safezonehq/safezone/pipeline"
	"github.com/safezonehq/safezone/policy"
)

// codex checks Codex CLI's registrations of safezone (the project's
// .codex/hooks.json and $CODEX_HOME/hooks.json) and reports whether each
// is found. A registration Codex will skip is a FIX naming the command
// that fixes it.
func (d *doctor) codex(root, home string, sys *pipeline.System) bool {
	loc := policy.DefaultLocations(sys.Getenv, root, home)
	if loc.CodexHome == "" {
		return false
	}
	cfgFile := filepath.Join(loc.CodexHome, "config.toml")
	cfg, err := os.ReadFile(cfgFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.fix("%s cannot be read: %v", cfgFile, err)
		return false
	}
	st, err := pipeline.ParseCodexState(cfg)
	if err != nil {
		d.fix("%s is not valid TOML (%v): Codex refuses to start with it", cfgFile, err)
		return false
	}
	user := filepath.Join(loc.CodexHome, "hooks.json")
	project := filepath.Join(root, ".codex", "hooks.json")
	found := false
	for _, file := range []string{project, user} {
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		hooks, err := pipeline.CodexHooks(file, data, pipeline.RunsSafezone(sys.Executable))
		if err != nil {
			d.fix("%s is not valid JSON (%v): Codex skips it with a warning, and safezone's hook with it", file, err)
			continue
		}
		if len(hooks) == 0 {
			continue
		}
		found = true
		if v, ok := st.Features["hooks"].(bool); ok && !v {
			d.fix("%s turns Codex's hooks off ([features] hooks = false): no hook runs; remove that line", cfgFile)
		}
		if file == project && !st.ProjectTrusted(root) {
			d.fix("registered in %s (codex), but Codex ignores the project's .codex/ until the project is trusted, without a word: run `safezone init --host codex --trust` (the user-level registration), or trust the project (codex exec --trust, or the TUI's prompt)", file)
			continue
		}
		for _, h := range hooks {
			if ok, why := st.Trusted(h); !ok {
				d.fix("registered in %s (codex): %s; %s: run `safezone init --host codex --trust`, or trust it in codex's /hooks", file, h.Command, why)
				continue
			}
			d.ok("registered in %s (codex), trusted in %s: %s", file, cfgFile, h.Command)
		}
	}
	if home != "" {
		if def := filepath.Join(home, ".codex", "hooks.json"); def != user {
			if b, err := os.ReadFile(def); err == nil && strings.Contains(string(b), "safezone") {
				d.fix("%s registers safezone, but CODEX_HOME is %s: Codex reads %s instead and ignores that file", def, loc.CodexHome, user)
			}
		}
	}
	return found
}

// geminiSettings is the part of a Gemini CLI settings file doctor reads.
type geminiSettings struct {
	HooksConfig struct {
		Enabled  *bool    `json:"enabled"`
		Disabled []string `json:"disabled"`
	} `json:"hooksConfig"`
	Security struct {
		FolderTrust struct {
			Enabled *bool `json:"enabled"`
		} `json:"folderTrust"`
	} `json:"security"`
	Hooks map[string][]struct {
		Hooks []struct {
			Name    string `json:"name"`
			Command string `json:"command"`
		} `json:"hooks"`
	} `json:"hooks"`
}

// readGeminiSettings reads a Gemini CLI settings file (JSON with
// comments); a missing one is empty.
func readGeminiSettings(file string) (geminiSettings, bool, error) {
	var s geminiSettings
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return s, true, err
	}
	v.Standardize()
	return s, true, json.Unmarshal(v.Pack(), &s)
}

// geminiHooks returns the commands of a Gemini CLI settings file's hooks
// for event that run safezone (ours).
func geminiHooks(s geminiSettings, event string, ours func(string) bool) []string {
	var cmds []string
	for _, g := range s.Hooks[event] {
		for _, h := range g.Hooks {
			if ours(h.Command) {
				cmds = append(cmds, h.Command)
			}
		}
	}
	return cmds
}

// gemini checks Gemini CLI's registrations of safezone (the project's
// .gemini/settings.json and ~/.gemini/settings.json) and reports whether
// one is found.
func (d *doctor) gemini(root, home string, sys *pipeline.System) bool {
	ours := pipeline.RunsSafezone(sys.Executable)
	userFile := filepath.Join(home, ".gemini", "settings.json")
	projFile := filepath.Join(root, ".gemini", "settings.json")
	user, _, uerr := readGeminiSettings(userFile)
	proj, _, perr := readGeminiSettings(projFile)
	for f, err := range map[string]error{userFile: uerr, projFile: perr} {
		if err != nil {
			d.fix("%s cannot be read as Gemini CLI settings (%v): Gemini CLI refuses it", f, err)
		}
	}
	registered := func(s geminiSettings) []string { return geminiHooks(s, "BeforeTool", ours) }
	if len(registered(user)) > 0 && len(geminiHooks(user, "AfterTool", ours)) == 0 {
		d.info("%s registers safezone for BeforeTool only: the model is not told when a command runs confined; `safezone init --host gemini` adds the AfterTool entry", userFile)
	}
	inUser, inProj := registered(user), registered(proj)
	if len(inUser)+len(inProj) == 0 {
		return false
	}
	for _, f := range []struct {
		file string
		s    geminiSettings
	}{{userFile, user}, {projFile, proj}} {
		if e := f.s.HooksConfig.Enabled; e != nil && !*e {
			d.fix("%s sets hooksConfig.enabled to false: Gemini CLI runs no hook; remove it", f.file)
		}
		for _, off := range f.s.HooksConfig.Disabled {
			if off == "safezone" || ours(off) {
				d.fix("%s lists %q in hooksConfig.disabled: Gemini CLI does not run safezone's hook; remove it", f.file, off)
			}
		}
	}
	for _, c := range inUser {
		d.ok("registered in %s (gemini): %s", userFile, c)
	}
	for range inProj {
		switch {
		case !d.geminiFolderTrusted(root, home, user, sys):
			d.fix("registered in %s (gemini), but the folder is not trusted: Gemini CLI drops the project's hooks (a headless run exits 55; with --skip-trust it runs without them): run `safezone init --host gemini` (the user-level registration), or trust the folder", projFile)
		case len(inUser) == 0:
			d.fix("registered in %s (gemini): Gemini CLI runs it in this trusted folder, but drops it without a word when started with --skip-trust (its headless switch): run `safezone init --host gemini` for the user-level registration, which holds there too", projFile)
		default:
			d.fix("registered in %s (gemini) and in %s: every call runs the hook twice; remove the project's entry", projFile, userFile)
		}
	}
	return true
}

// geminiFolderTrusted reports whether Gemini CLI trusts the folder dir:
// folder trust is off (security.folderTrust.enabled false in the user's
// settings; on by default in 0.61.0), GEMINI_CLI_TRUST_WORKSPACE=true, or
// trustedFolders.json ($GEMINI_CLI_TRUSTED_FOLDERS_PATH, else
// ~/.gemini/trustedFolders.json) trusts it: the longest rule that covers
// it decides (TRUST_FOLDER its folder and below, TRUST_PARENT the folder's
// parent and below, DO_NOT_TRUST its folder).
func (d *doctor) geminiFolderTrusted(dir, home string, user geminiSettings, sys *pipeline.System) bool {
	if e := user.Security.FolderTrust.Enabled; (e != nil && !*e) || sys.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		return true
	}
	file := sys.Getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	if file == "" {
		file = filepath.Join(home, ".gemini", "trustedFolders.json")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return false
	}
	v.Standardize()
	var rules map[string]string
	if json.Unmarshal(v.Pack(), &rules) != nil {
		return false
	}
	best, trusted := -1, false
	paths := make([]string, 0, len(rules))
	for p := range rules {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		base := filepath.Clean(p)
		if rules[p] == "TRUST_PARENT" {
			base = filepath.Dir(base)
		}
		if dir != base && !strings.HasPrefix(dir, strings.TrimSuffix(base, "/")+"/") {
			continue
		}
		if len(base) > best {
			best, trusted = len(base), rules[p] != "DO_NOT_TRUST"
		}
	}
	return trusted
}

// hostRegistrations checks the registrations of the hosts other than
// Claude Code and reports whether one is found.
func (d *doctor) hostRegistrations(root, home string, sys *pipeline.System) bool {
	found := d.codex(root, home, sys)
	found = d.gemini(root, home, sys) || found
	found = d.copilot(root, home, sys) || found
	for _, host := range []string{"cursor"} {
		for _, user := range []bool{false, true} {
			p, err := hookio.ConfigPath(host, root, home, user)
			if err != nil {
				continue
			}
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "safezone") {
				found = true
				d.ok("registered in %s (%s)", p, host)
			}
		}
	}
	return found
}

// copilotHook is one safezone entry of a Copilot CLI hook file.
type copilotHook struct {
	file, event, command, matcher string
}

// copilotHooks returns the safezone entries (ours) of the Copilot CLI hook
// files *.json in dir, under preToolUse or PreToolUse ({"version": 1,
// "hooks": {"preToolUse": [{"bash", "command", "matcher"?}]}}). A file
// that is not JSON is a FIX: Copilot cannot load it.
func (d *doctor) copilotHooks(dir string, ours func(string) bool) []copilotHook {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []copilotHook
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "safezone") {
			continue
		}
		var cfg struct {
			Hooks map[string][]struct {
				Bash    string `json:"bash"`
				Command string `json:"command"`
				Matcher string `json:"matcher"`
			} `json:"hooks"`
		}
		v, err := hujson.Parse(b)
		if err == nil {
			v.Standardize()
			err = json.Unmarshal(v.Pack(), &cfg)
		}
		if err != nil {
			d.fix("%s is not a valid Copilot CLI hook file (%v): Copilot cannot load it, nor safezone's hook in it", f, err)
			continue
		}
		for _, ev := range []string{"preToolUse", "PreToolUse"} {
			for _, h := range cfg.Hooks[ev] {
				cmd := h.Bash // on Linux and macOS Copilot runs bash before command
				if cmd == "" {
					cmd = h.Command
				}
				if ours(cmd) {
					out = append(out, copilotHook{file: f, event: ev, command: cmd, matcher: h.Matcher})
				}
			}
		}
	}
	return out
}

// copilotSettings is the part of a Copilot CLI settings or config file
// doctor reads.
type copilotSettings struct {
	DisableAllHooks bool     `json:"disableAllHooks"`
	TrustedFolders  []string `json:"trustedFolders"`
}

// readCopilotSettings reads a Copilot CLI settings file (JSON with
// comments); a missing or unreadable one is empty.
func readCopilotSettings(file string) copilotSettings {
	var s copilotSettings
	b, err := os.ReadFile(file)
	if err != nil {
		return s
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return s
	}
	v.Standardize()
	_ = json.Unmarshal(v.Pack(), &s)
	return s
}

// copilot checks Copilot CLI's registrations of safezone (the project's
// .github/hooks/*.json and $COPILOT_HOME/hooks/*.json, ~/.copilot when
// unset) and reports whether one is found: hooks turned off
// (disableAllHooks in the user's settings.json or config.json, or the
// repository's .github/copilot/settings.json or settings.local.json), a
// project registration without the user-level one in a folder Copilot does
// not trust (prompt mode drops it without a word: trustedFolders in
// config.json or settings.json, a folder or one above it), the hook
// registered more than once (every call runs it that many times), and a
// matcher (the tools it leaves out are not judged).
func (d *doctor) copilot(root, home string, sys *pipeline.System) bool {
	cpHome := sys.Getenv("COPILOT_HOME")
	if cpHome == "" && home != "" {
		cpHome = filepath.Join(home, ".copilot")
	}
	ours := pipeline.RunsSafezone(sys.Executable)
	var user []copilotHook
	if cpHome != "" {
		user = d.copilotHooks(filepath.Join(cpHome, "hooks"), ours)
	}
	proj := d.copilotHooks(filepath.Join(root, ".github", "hooks"), ours)
	if len(user)+len(proj) == 0 {
		return false
	}
	var trusted []string
	files := []string{filepath.Join(root, ".github", "copilot", "settings.json"), filepath.Join(root, ".github", "copilot", "settings.local.json")}
	if cpHome != "" {
		files = append(files, filepath.Join(cpHome, "settings.json"), filepath.Join(cpHome, "config.json"))
	}
	for _, f := range files {
		st := readCopilotSettings(f)
		if st.DisableAllHooks {
			d.fix("%s sets disableAllHooks: Copilot CLI runs no hook, safezone's neither; remove it", f)
		}
		if strings.HasPrefix(f, cpHome+string(filepath.Separator)) {
			trusted = append(trusted, st.TrustedFolders...)
		}
	}
	for _, h := range append(slices.Clone(user), proj...) {
		if h.matcher != "" {
			d.fix("%s: safezone's %s entry has the matcher %q: Copilot CLI does not run safezone for the other tools; remove the matcher (`safezone init --host copilot` writes none)", h.file, h.event, h.matcher)
		}
	}
	for _, h := range user {
		d.ok("registered in %s (copilot, every project of this user): %s", h.file, h.command)
	}
	folderTrusted := false
	for _, f := range trusted {
		f = filepath.Clean(f)
		if root == f || strings.HasPrefix(root, strings.TrimSuffix(f, "/")+"/") {
			folderTrusted = true
		}
	}
	for _, h := range proj {
		switch {
		case len(user) > 0:
		case folderTrusted:
			d.ok("registered in %s (copilot), in a folder Copilot CLI trusts: %s", h.file, h.command)
		default:
			d.fix("registered in %s (copilot), but the folder is not trusted: `copilot -p` drops the project's .github/hooks without a word (and runs every tool under --yolo): run `safezone init --host copilot` (the user-level registration)", h.file)
		}
	}
	if n := len(user) + len(proj); n > 1 {
		var where []string
		for _, h := range append(user, proj...) {
			where = append(where, h.file)
		}
		d.fix("safezone is registered %d times for Copilot CLI (%s): where Copilot loads them all, every call runs the hook %d times; keep the user-level one", n, strings.Join(where, ", "), n)
	}
	return true
}

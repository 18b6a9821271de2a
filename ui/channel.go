package ui

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gpuwiz/steps/app"
	"gpuwiz/steps/i18n"
)

// channelScreen lists the candidate builds: the recommendation marked, incompatible rows greyed with
// their reason, minor-compat rows marked, the current channel marked when changing an environment.
type channelScreen struct {
	frame
	report    app.GPUReport
	framework string
	version   string
	current   *app.VenvInfo
	sel       *app.Selection
	rows      []app.Candidate
	notes     *app.Footnotes // texts several rows share, printed once under the list
	err       error
	cursor    int
	notice    string
	story     *driverStory // the GPU screen's driver story: what an update would add
	resumed   *app.Resumed // the wizard started here after the restart a driver install asked for
}

func newChannelScreen(c *Common, r app.GPUReport, framework, version string, current *app.VenvInfo) *channelScreen {
	return &channelScreen{frame: newFrame(c), report: r, framework: framework, version: version, current: current}
}

func (s *channelScreen) Init() tea.Cmd {
	if s.sel != nil {
		return nil
	}
	v := s.version
	if s.current != nil {
		v = "" // changing: every version, the current one first
	}
	f := factsFor(s.report, s.framework, v)
	if s.current != nil {
		f.PythonVersion = s.current.PythonVersion // the venv's Python stays: builds must support it
	}
	return channelsCmd(s.id, s.c.Ctx, s.c.Backend, f)
}

func (s *channelScreen) Title() string {
	return i18n.T("ui.channel.title", i18n.D{"Framework": app.FrameworkName(s.framework), "Version": s.version})
}
func (s *channelScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{k.Up, k.Down, k.Select}
}
func (s *channelScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Up, k.Down}, {k.Select}}
}

func (s *channelScreen) isCurrent(c app.Candidate) bool {
	return s.current != nil && s.current.Channel == c.Channel && s.current.FrameworkVersion == c.FrameworkVersion
}

func sameCandidate(a, b app.Candidate) bool {
	return a.Framework == b.Framework && a.FrameworkVersion == b.FrameworkVersion && a.Channel == b.Channel
}

// order puts the current framework version first when changing, so the version is kept when the
// new channel offers it.
func (s *channelScreen) order(sel app.Selection) []app.Candidate {
	if s.current == nil {
		var out []app.Candidate
		for _, c := range sel.Candidates {
			if s.version == "" || c.FrameworkVersion == s.version {
				out = append(out, c)
			}
		}
		return out
	}
	var same, other []app.Candidate
	for _, c := range sel.Candidates {
		if c.FrameworkVersion == s.current.FrameworkVersion {
			same = append(same, c)
		} else {
			other = append(other, c)
		}
	}
	return append(same, other...)
}

func (s *channelScreen) defaultCursor() int {
	rec := s.sel.Recommended
	if s.current != nil {
		for i, c := range s.rows {
			if c.Compatible && !s.isCurrent(c) && c.FrameworkVersion == s.current.FrameworkVersion {
				if rec != nil && sameCandidate(c, *rec) {
					return i
				}
			}
		}
		for i, c := range s.rows {
			if c.Compatible && !s.isCurrent(c) && c.FrameworkVersion == s.current.FrameworkVersion {
				return i
			}
		}
	}
	if rec != nil {
		for i, c := range s.rows {
			if sameCandidate(c, *rec) {
				return i
			}
		}
	}
	for i, c := range s.rows {
		if c.Compatible {
			return i
		}
	}
	return 0
}

func (s *channelScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case channelsMsg:
		if s.sel, s.err = answer(msg.value, msg.err); s.sel != nil {
			s.rows = s.order(*s.sel)
			texts := make([][]string, len(s.rows))
			for i, c := range s.rows {
				texts[i] = app.RowTexts(c)
			}
			s.notes = app.NewFootnotes(texts)
			s.cursor = s.defaultCursor()
			if s.version == "" && len(s.rows) > 0 {
				s.version = s.rows[s.cursor].FrameworkVersion
			}
		}
	case tea.KeyMsg:
		k := s.c.Keys
		s.notice = ""
		switch {
		case key.Matches(msg, k.Up) && s.cursor > 0:
			s.cursor--
		case key.Matches(msg, k.Down) && s.cursor < len(s.rows)-1:
			s.cursor++
		case key.Matches(msg, k.Select) && len(s.rows) > 0:
			c := s.rows[s.cursor]
			switch {
			case !c.Compatible:
				s.notice = i18n.T("ui.channel.no_fit", i18n.D{"Reasons": i18n.JoinClauses(c.Reasons)})
			case s.isCurrent(c):
				s.notice = i18n.T("ui.channel.same")
			default:
				return s, navigate(channelChosenMsg{c})
			}
		}
	}
	return s, nil
}

func (s *channelScreen) rowLine(c app.Candidate, selected bool) string {
	st := s.c.Styles
	mark := "  "
	switch {
	case s.sel.Recommended != nil && sameCandidate(c, *s.sel.Recommended):
		mark = st.Star + " "
	case c.MinorCompat && c.Compatible:
		mark = "~ "
	}
	cuda := i18n.T("ui.channel.cpu_only")
	if c.CUDA != "" {
		cuda = "CUDA " + c.CUDA
	}
	// Columns by display width: a Chinese character takes two.
	text := mark + i18n.Pad(c.Channel, 7) + " " + i18n.Pad(cuda, 10) + " " + i18n.Pad(c.FrameworkVersion, 8)
	var tags []string
	if s.isCurrent(c) {
		tags = append(tags, i18n.T("ui.channel.tag.current"))
	}
	if c.MinorCompat && c.Compatible {
		tags = append(tags, i18n.T("ui.channel.tag.minor"))
	}
	if !c.Verified {
		tags = append(tags, i18n.T("ui.channel.tag.unverified"))
	}
	if len(tags) > 0 {
		text += " " + i18n.T("ui.channel.tags", i18n.D{"Tags": i18n.Join(tags)})
	}
	if c.Compatible {
		if _, refs := s.notes.Split(app.RowTexts(c)); len(refs) > 0 {
			text += " " + app.FootnoteMarks(refs)
		}
	}
	cur := st.NoCursor
	if selected {
		cur = st.Cursor
	}
	switch {
	case !c.Compatible:
		reason := ""
		if line := s.notes.Line(c.Reasons); line != "" {
			reason = " - " + line
		}
		return cur + st.Dim.Render(text+reason)
	case selected:
		return cur + st.Selected.Render(text)
	case mark == st.Star+" ":
		return cur + st.Recommend.Render(text)
	}
	return cur + text
}

func (s *channelScreen) View() string {
	st := s.c.Styles
	if s.err != nil {
		return st.Err.Render(i18n.T("ui.channel.matrix_error", i18n.D{"Err": s.err.Error()})) + "\n" + wrap(i18n.T("ui.channel.matrix_error_hint"), s.w)
	}
	if s.sel == nil {
		return i18n.T("ui.channel.reading")
	}
	if len(s.rows) == 0 {
		return wrap(i18n.T("ui.channel.empty", i18n.D{"Framework": app.FrameworkName(s.framework)}), s.w)
	}
	var b strings.Builder
	if s.current != nil {
		if s.current.Channel == "" { // a build gpuwiz did not install and whose name does not say
			b.WriteString(i18n.T("ui.channel.now_unknown", i18n.D{"Framework": app.FrameworkName(s.framework), "Version": s.current.FrameworkVersion}) + "\n")
		} else {
			b.WriteString(i18n.T("ui.channel.now", i18n.D{"Framework": app.FrameworkName(s.framework), "Version": s.current.FrameworkVersion, "Channel": s.current.Channel}) + "\n")
		}
	} else {
		b.WriteString(wrap(i18n.T("ui.channel.legend", i18n.D{"Star": st.Star}), s.w) + "\n")
	}
	if r := s.resumed; r != nil {
		b.WriteString(st.OK.Render(wrap(i18n.T("ui.channel.resumed", i18n.D{"Driver": r.Now, "Before": cmp.Or(r.Point.Before, i18n.T("driver.none_installed"))}), s.w)) + "\n")
	}
	if d := s.story; d != nil && len(d.adds) > 0 {
		say := i18n.T("ui.channel.driver_update", i18n.D{"Version": d.version, "CUDA": cudaList(d.adds)})
		if d.ready {
			say = i18n.T("ui.channel.driver_update_u", i18n.D{"Version": d.version, "CUDA": cudaList(d.adds)})
		}
		b.WriteString(st.Dim.Render(wrap(say, s.w)) + "\n")
	}
	detail := s.detail(s.rows[s.cursor])
	extra := 0 // the lines of the resume and driver notes above the list
	if s.resumed != nil || s.story != nil {
		extra = max(strings.Count(b.String(), "\n")-1, 0)
	}
	// The list's window, then the footnotes of the rows in it (never of rows scrolled out of view):
	// first sized with every footnote, then again with only those of the rows it shows, kept when
	// the larger window still leaves room for its own footnotes.
	layout := func(detail []string) (start, listH int, foot []string) {
		limit := max(s.h-2-len(detail)-3, 0)
		window := func(foot []string) (start, listH int) {
			listH = max(s.h-2-len(detail)-len(foot)-extra, 3)
			return min(max(s.cursor-listH/2, 0), max(len(s.rows)-listH, 0)), listH
		}
		start, listH = window(s.footnotes(limit, nil))
		foot = s.footnotes(limit, s.refsIn(start, listH))
		if start2, listH2 := window(foot); listH2 > listH {
			if foot2 := s.footnotes(limit, s.refsIn(start2, listH2)); len(detail)+len(foot2)+extra+min(listH2, len(s.rows)) <= s.h-2 {
				start, listH, foot = start2, listH2, foot2
			}
		}
		return start, listH, foot
	}
	start, listH, foot := layout(detail)
	if s.cutIn(start, listH) { // a row's reason ends with … : say where the rest is
		detail = append(detail, st.Dim.Render(wrap(i18n.T("ui.channel.cut_hint", i18n.D{"Mark": ellipsis(st)}), s.w)))
		start, listH, foot = layout(detail)
	}
	for i := start; i < len(s.rows) && i < start+listH; i++ {
		b.WriteString(s.rowLine(s.rows[i], i == s.cursor) + "\n")
	}
	b.WriteString(st.HRule(min(s.w, 60)) + "\n")
	for _, d := range append(detail, foot...) {
		b.WriteString(d + "\n")
	}
	return b.String()
}

// refsIn is the footnote numbers the rows from start (listH of them) refer to.
func (s *channelScreen) refsIn(start, listH int) map[int]bool {
	refs := map[int]bool{}
	for i := start; i < len(s.rows) && i < start+listH; i++ {
		c := s.rows[i]
		_, own := s.notes.Split(app.RowTexts(c))
		_, why := s.notes.Split(c.Reasons)
		for _, n := range append(own, why...) {
			refs[n] = true
		}
	}
	return refs
}

// cutIn says whether a row shown (from start, listH of them) other than the cursor's is wider
// than the screen: the root ends it with … , and its whole reason shows under the list when the
// cursor is on it.
func (s *channelScreen) cutIn(start, listH int) bool {
	for i := start; i < len(s.rows) && i < start+listH; i++ {
		if i != s.cursor && ansi.StringWidth(s.rowLine(s.rows[i], false)) > s.w {
			return true
		}
	}
	return false
}

// detail explains the row under the cursor: why it fits or not, its own notes (shared ones are
// footnotes), what "unverified" means and what to do, the notice of a refused key.
func (s *channelScreen) detail(c app.Candidate) []string {
	st := s.c.Styles
	var out []string
	add := func(text string, style func(...string) string) {
		out = append(out, strings.Split(style(wrap(text, s.w)), "\n")...)
	}
	plain := func(s ...string) string { return strings.Join(s, " ") }
	if s.notice != "" {
		add(s.notice, st.Warn.Render)
	}
	reasons := c.Reasons
	if !c.Compatible {
		reasons, _ = s.notes.Split(c.Reasons)
	}
	for _, r := range reasons {
		add(st.Bullet+" "+r, plain)
	}
	if c.Compatible {
		own, _ := s.notes.Split(app.RowTexts(c))
		for _, n := range own {
			add(n, st.Dim.Render)
		}
		if !c.Verified {
			add(i18n.T("ui.channel.unverified", i18n.D{"Advice": s.unverifiedAdvice()}), st.Warn.Render)
		}
	}
	if len(out) > 6 {
		out = out[:6]
	}
	return out
}

// unverifiedAdvice names the verified build to pick instead, or says to go on. For a CUDA build it
// names only a CUDA build: a CPU build is no safe choice in a GPU wizard.
func (s *channelScreen) unverifiedAdvice() string {
	gpu := s.rows[s.cursor].CUDA != ""
	kinds := []bool{true, false} // a CUDA build for a CUDA build first
	if gpu {
		kinds = kinds[:1]
	}
	for _, sameKind := range kinds {
		for i, c := range s.rows {
			if !c.Compatible || !c.Verified || s.isCurrent(c) || (sameKind && (c.CUDA != "") != gpu) {
				continue
			}
			if i < s.cursor {
				return i18n.T("ui.channel.advice.above", i18n.D{"Channel": c.Channel, "Version": c.FrameworkVersion})
			}
			return i18n.T("ui.channel.advice.below", i18n.D{"Channel": c.Channel, "Version": c.FrameworkVersion})
		}
	}
	if s.current == nil && s.version != "" {
		return i18n.T("ui.channel.advice.none_version", i18n.D{"Framework": app.FrameworkName(s.framework), "Version": s.version})
	}
	return i18n.T("ui.channel.advice.none")
}

// footnotes are the shared texts, numbered as the rows mark them, in at most limit lines.
func (s *channelScreen) footnotes(limit int, only map[int]bool) []string {
	if s.notes == nil || len(s.notes.Texts) == 0 || limit <= 0 {
		return nil
	}
	st := s.c.Styles
	var out []string
	for i, t := range s.notes.Texts {
		if only != nil && !only[i+1] {
			continue
		}
		lines := strings.Split(wrap(fmt.Sprintf("[%d] %s", i+1, t), s.w), "\n")
		if len(out)+len(lines) > limit {
			rest := i18n.T("ui.channel.footnotes_rest", i18n.D{"From": i + 1, "To": len(s.notes.Texts)})
			if len(out) == limit {
				out = out[:limit-1]
			}
			return append(out, st.Dim.Render(rest))
		}
		for _, l := range lines {
			out = append(out, st.Dim.Render(l))
		}
	}
	return out
}

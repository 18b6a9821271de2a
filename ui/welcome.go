package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gpuwiz/steps/i18n"
)

type welcomeChoice struct {
	journey     Journey
	title, hint string
}

// welcomeChoices are the journeys in the current language.
func welcomeChoices() []welcomeChoice {
	return []welcomeChoice{
		{JourneyNew, i18n.T("ui.welcome.new.title"), i18n.T("ui.welcome.new.hint")},
		{JourneyChange, i18n.T("ui.welcome.change.title"), i18n.T("ui.welcome.change.hint")},
		{JourneyRepair, i18n.T("ui.welcome.repair.title"), i18n.T("ui.welcome.repair.hint")},
		{JourneyCheck, i18n.T("ui.welcome.check.title"), i18n.T("ui.welcome.check.hint")},
	}
}

// numJourneys is how many journeys the welcome offers.
const numJourneys = 4

// langSwitchMsg asks the root to switch the wizard to the other language (the welcome's l).
type langSwitchMsg struct{ cursor int }

// welcomeScreen asks which journey to take.
type welcomeScreen struct {
	frame
	cursor int
	pick   key.Binding // 1-4: one key per journey
}

func newWelcome(c *Common) *welcomeScreen {
	pick := c.Keys.Pick
	pick.SetKeys("1", "2", "3", "4")
	pick.SetHelp("1-4", i18n.T("ui.key.choose"))
	return &welcomeScreen{frame: newFrame(c), pick: pick}
}

func (s *welcomeScreen) Init() tea.Cmd { return nil }
func (s *welcomeScreen) Title() string { return i18n.T("ui.welcome.title") }
func (s *welcomeScreen) ShortHelp() []key.Binding {
	k := s.c.Keys
	return []key.Binding{k.Up, k.Down, k.Select, k.Lang}
}
func (s *welcomeScreen) FullHelp() [][]key.Binding {
	k := s.c.Keys
	return [][]key.Binding{{k.Up, k.Down}, {k.Select, s.pick}, {k.Lang}}
}

func (s *welcomeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if msg, ok := msg.(tea.KeyMsg); ok {
		k := s.c.Keys
		switch {
		case key.Matches(msg, k.Up):
			s.cursor = (s.cursor + numJourneys - 1) % numJourneys
		case key.Matches(msg, k.Down):
			s.cursor = (s.cursor + 1) % numJourneys
		case key.Matches(msg, s.pick):
			s.cursor = int(msg.String()[0] - '1')
			return s, navigate(journeyChosenMsg{welcomeChoices()[s.cursor].journey})
		case key.Matches(msg, k.Select):
			return s, navigate(journeyChosenMsg{welcomeChoices()[s.cursor].journey})
		case key.Matches(msg, k.Lang):
			return s, navigate(langSwitchMsg{s.cursor})
		}
	}
	return s, nil
}

func (s *welcomeScreen) View() string {
	st := s.c.Styles
	var b strings.Builder
	b.WriteString(wrap(i18n.T("ui.welcome.intro"), s.w) + "\n")
	b.WriteString(st.Dim.Render(wrap(i18n.T("ui.welcome.safe"), s.w)) + "\n\n")
	for i, ch := range welcomeChoices() {
		cur, title := st.NoCursor, st.Normal.Render(ch.title)
		if i == s.cursor {
			cur, title = st.Cursor, st.Selected.Render(ch.title)
		}
		b.WriteString(cur + st.Dim.Render(string(rune('1'+i))+". ") + title + "\n")
		for _, l := range strings.Split(wrap(ch.hint, s.w-5), "\n") {
			b.WriteString("     " + st.Dim.Render(l) + "\n")
		}
	}
	lang := i18n.T("ui.welcome.language", i18n.D{"Name": i18n.T("lang.name"), "Other": langHint(st.ASCII)})
	b.WriteString("\n" + st.Dim.Render(wrap(lang, s.w)) + "\n")
	return b.String()
}

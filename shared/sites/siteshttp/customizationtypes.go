package siteshttp

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// The shapes of a site's customization settings, with the fields, enums and
// limits of GitBook's current reference (SiteCustomizationSettings). The
// same types validate PUT bodies (huma) and PATCH overrides (validate, in
// customization.go), and document both in the OpenAPI document.

// SiteCustomizationInput is the body of PUT .../customization: the whole
// settings, as GitBook requires them.
type SiteCustomizationInput struct {
	Title                 string                       `json:"title,omitempty" minLength:"2" maxLength:"128"`
	LocalizedTitle        map[string]string            `json:"localizedTitle,omitempty"`
	Styling               CustomizationStyling         `json:"styling"`
	Internationalization  CustomizationI18n            `json:"internationalization"`
	Favicon               CustomizationFavicon         `json:"favicon"`
	Header                CustomizationHeader          `json:"header"`
	Footer                CustomizationFooter          `json:"footer"`
	Announcement          *CustomizationAnnouncement   `json:"announcement,omitempty"`
	Themes                CustomizationThemes          `json:"themes"`
	Feedback              CustomizationToggle          `json:"feedback"`
	AI                    CustomizationAI              `json:"ai"`
	AdvancedCustomization CustomizationToggle          `json:"advancedCustomization"`
	PageActions           CustomizationPageActions     `json:"pageActions"`
	ExternalLinks         CustomizationExternalLinks   `json:"externalLinks"`
	Pagination            CustomizationToggle          `json:"pagination"`
	Trademark             CustomizationToggle          `json:"trademark"`
	PrivacyPolicy         CustomizationURLSetting      `json:"privacyPolicy"`
	SocialPreview         CustomizationURLSetting      `json:"socialPreview"`
	SocialAccounts        []CustomizationSocialAccount `json:"socialAccounts" maxItems:"10" nullable:"false"`
	Insights              CustomizationInsights        `json:"insights"`
}

// SiteCustomizationSettings is a site's (or a site space's) effective
// customization.
type SiteCustomizationSettings struct {
	SiteCustomizationInput
	UpdatedAt *time.Time `json:"updatedAt,omitempty" doc:"When the settings were last changed; absent when never"`
}

// CustomizationThemedColor is a colour for each theme mode.
type CustomizationThemedColor struct {
	Light string `json:"light" pattern:"^#(?:[0-9a-fA-F]{3}){1,2}$" doc:"Hex colour"`
	Dark  string `json:"dark" pattern:"^#(?:[0-9a-fA-F]{3}){1,2}$" doc:"Hex colour"`
}

// CustomizationThemedURL is a URL for each theme mode.
type CustomizationThemedURL struct {
	Light string `json:"light" format:"uri" minLength:"1" maxLength:"2048"`
	Dark  string `json:"dark" format:"uri" minLength:"1" maxLength:"2048"`
}

// CustomizationTint colours the site's chrome.
type CustomizationTint struct {
	Color CustomizationThemedColor `json:"color"`
}

// CustomizationThemedCodeTheme is a code theme for each theme mode.
type CustomizationThemedCodeTheme struct {
	Light string `json:"light" enum:"default-light,default-dark,monochrome-light,monochrome-dark,andromeeda,aurora-x,ayu-dark,catppuccin-frappe,catppuccin-latte,catppuccin-macchiato,catppuccin-mocha,dark-plus,dracula,dracula-soft,everforest-dark,everforest-light,github-dark,github-dark-default,github-dark-dimmed,github-dark-high-contrast,github-light,github-light-default,github-light-high-contrast,gruvbox-dark-hard,gruvbox-dark-medium,gruvbox-dark-soft,gruvbox-light-hard,gruvbox-light-medium,gruvbox-light-soft,houston,kanagawa-dragon,kanagawa-lotus,kanagawa-wave,laserwave,light-plus,material-theme,material-theme-darker,material-theme-lighter,material-theme-ocean,material-theme-palenight,min-dark,min-light,monokai,night-owl,nord,one-dark-pro,one-light,plastic,poimandres,red,rose-pine,rose-pine-dawn,rose-pine-moon,slack-dark,slack-ochin,snazzy-light,solarized-dark,solarized-light,synthwave-84,tokyo-night,vesper,vitesse-black,vitesse-dark,vitesse-light"`
	Dark  string `json:"dark" enum:"default-light,default-dark,monochrome-light,monochrome-dark,andromeeda,aurora-x,ayu-dark,catppuccin-frappe,catppuccin-latte,catppuccin-macchiato,catppuccin-mocha,dark-plus,dracula,dracula-soft,everforest-dark,everforest-light,github-dark,github-dark-default,github-dark-dimmed,github-dark-high-contrast,github-light,github-light-default,github-light-high-contrast,gruvbox-dark-hard,gruvbox-dark-medium,gruvbox-dark-soft,gruvbox-light-hard,gruvbox-light-medium,gruvbox-light-soft,houston,kanagawa-dragon,kanagawa-lotus,kanagawa-wave,laserwave,light-plus,material-theme,material-theme-darker,material-theme-lighter,material-theme-ocean,material-theme-palenight,min-dark,min-light,monokai,night-owl,nord,one-dark-pro,one-light,plastic,poimandres,red,rose-pine,rose-pine-dawn,rose-pine-moon,slack-dark,slack-ochin,snazzy-light,solarized-dark,solarized-light,synthwave-84,tokyo-night,vesper,vitesse-black,vitesse-dark,vitesse-light"`
}

// CustomizationCodeThemes are the code themes of content and of OpenAPI blocks.
type CustomizationCodeThemes struct {
	Default CustomizationThemedCodeTheme `json:"default"`
	OpenAPI CustomizationThemedCodeTheme `json:"openapi"`
}

// CustomizationSidebar is the sidebar's style.
type CustomizationSidebar struct {
	Background string `json:"background" enum:"default,filled"`
	List       string `json:"list" enum:"default,pill,line"`
}

// CustomizationStyling is the site's look.
type CustomizationStyling struct {
	Theme         string                    `json:"theme" enum:"clean,muted,bold,gradient"`
	PrimaryColor  CustomizationThemedColor  `json:"primaryColor"`
	Tint          *CustomizationTint        `json:"tint,omitempty"`
	InfoColor     CustomizationThemedColor  `json:"infoColor"`
	SuccessColor  CustomizationThemedColor  `json:"successColor"`
	WarningColor  CustomizationThemedColor  `json:"warningColor"`
	DangerColor   CustomizationThemedColor  `json:"dangerColor"`
	Corners       string                    `json:"corners" enum:"straight,rounded,circular"`
	Depth         string                    `json:"depth" enum:"subtle,flat"`
	Links         string                    `json:"links" enum:"default,accent"`
	Font          *CustomizationFont        `json:"font" required:"true"`
	HeadingFont   *CustomizationHeadingFont `json:"headingFont,omitempty"`
	MonospaceFont *CustomizationMonoFont    `json:"monospaceFont" required:"true"`
	Background    string                    `json:"background" enum:"plain,match"`
	Icons         string                    `json:"icons" enum:"regular,solid,duotone,light,thin"`
	CodeTheme     CustomizationCodeThemes   `json:"codeTheme"`
	Sidebar       CustomizationSidebar      `json:"sidebar"`
	Search        string                    `json:"search" enum:"prominent,subtle"`
}

// fontDefinition is the schema of a custom font.
func fontDefinition() *huma.Schema {
	one, minFam, maxFam := 1, 1, 50
	return &huma.Schema{Type: huma.TypeObject, Required: []string{"id", "custom", "fontFamily", "fontFaces"}, Properties: map[string]*huma.Schema{
		"id":         {Type: huma.TypeString},
		"custom":     {Type: huma.TypeBoolean},
		"fontFamily": {Type: huma.TypeString, MinLength: &minFam, MaxLength: &maxFam},
		"fontFaces": {Type: huma.TypeArray, MinItems: &one, Items: &huma.Schema{Type: huma.TypeObject, Required: []string{"weight", "sources"},
			Properties: map[string]*huma.Schema{"weight": {Type: huma.TypeInteger}, "sources": {Type: huma.TypeArray, MinItems: &one,
				Items: &huma.Schema{Type: huma.TypeObject}}}}},
	}}
}

// rawJSON keeps a value of several forms as sent.
type rawJSON json.RawMessage

// MarshalJSON writes the value as sent.
func (r rawJSON) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// UnmarshalJSON keeps the value.
func (r *rawJSON) UnmarshalJSON(b []byte) error { *r = append((*r)[:0], b...); return nil }

// CustomizationFont is a default font's name or a custom font.
type CustomizationFont struct{ rawJSON }

// Schema documents both forms.
func (CustomizationFont) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{OneOf: []*huma.Schema{{Type: huma.TypeString, Enum: enum("ABCFavorit", "Inter", "Roboto", "RobotoSlab", "OpenSans",
		"SourceSansPro", "Lato", "Ubuntu", "Raleway", "Merriweather", "Overpass", "NotoSans", "IBMPlexSerif", "Poppins", "FiraSans")}, fontDefinition()}}
}

// CustomizationHeadingFont is the font of headings: as CustomizationFont, or null.
type CustomizationHeadingFont struct{ rawJSON }

// Schema documents the forms.
func (CustomizationHeadingFont) Schema(r huma.Registry) *huma.Schema {
	s := CustomizationFont{}.Schema(r)
	s.OneOf[0].Nullable = true
	return s
}

// CustomizationMonoFont is a default monospace font's name or a custom font.
type CustomizationMonoFont struct{ rawJSON }

// Schema documents both forms.
func (CustomizationMonoFont) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{OneOf: []*huma.Schema{{Type: huma.TypeString, Enum: enum("FiraCode", "IBMPlexMono", "JetBrainsMono", "SourceCodePro",
		"RobotoMono", "SpaceMono", "DMMono", "Inconsolata")}, fontDefinition()}}
}

func enum(vs ...string) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// CustomizationI18n is the interface's language (deprecated by GitBook, still required).
type CustomizationI18n struct {
	Locale string `json:"locale" enum:"en,fr,es,zh,ja,de,nl,no,pt-br,ru"`
}

// CustomizationFavicon is an icon, an emoji, or nothing (the default).
type CustomizationFavicon struct{ rawJSON }

// Schema documents the three forms.
func (CustomizationFavicon) Schema(r huma.Registry) *huma.Schema {
	maxEmoji, f := 50, false
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: huma.TypeObject, Required: []string{"icon"}, Properties: map[string]*huma.Schema{"icon": r.Schema(reflect.TypeFor[CustomizationThemedURL](), true, "")}},
		{Type: huma.TypeObject, Required: []string{"emoji"}, Properties: map[string]*huma.Schema{"emoji": {Type: huma.TypeString, MaxLength: &maxEmoji}}},
		{Type: huma.TypeObject, Properties: map[string]*huma.Schema{}, AdditionalProperties: f},
	}}
}

// CustomizationContentRef is a link target (GitBook's ContentRef: a page,
// a URL, a file, a space...), kept as sent.
type CustomizationContentRef struct{ rawJSON }

// Schema documents a content reference by its kind.
func (CustomizationContentRef) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: huma.TypeObject, Required: []string{"kind"}, AdditionalProperties: true, Properties: map[string]*huma.Schema{
		"kind": {Type: huma.TypeString, Enum: enum("file", "url", "page", "anchor", "user", "collection", "space", "reusable-content", "tag", "openapi")},
	}}
}

// CustomizationNullableContentRef is a content reference or null.
type CustomizationNullableContentRef struct{ rawJSON }

// Schema documents a content reference or null.
func (CustomizationNullableContentRef) Schema(r huma.Registry) *huma.Schema {
	s := CustomizationContentRef{}.Schema(r)
	s.Nullable = true
	return s
}

// CustomizationContentLink is a titled link.
type CustomizationContentLink struct {
	Title          string                  `json:"title" maxLength:"64"`
	LocalizedTitle map[string]string       `json:"localizedTitle,omitempty"`
	To             CustomizationContentRef `json:"to"`
}

// CustomizationHeaderItem is a link (or menu) of the header.
type CustomizationHeaderItem struct {
	Title          string                          `json:"title"`
	LocalizedTitle map[string]string               `json:"localizedTitle,omitempty"`
	Style          string                          `json:"style,omitempty" enum:"link,button-primary,button-secondary"`
	To             CustomizationNullableContentRef `json:"to"`
	Links          []CustomizationContentLink      `json:"links" nullable:"false"`
	Condition      string                          `json:"condition,omitempty" maxLength:"1024"`
}

// CustomizationHeader is the site's header.
type CustomizationHeader struct {
	Preset          string                    `json:"preset" enum:"default,bold,contrast,custom,none"`
	Logo            *CustomizationThemedURL   `json:"logo,omitempty"`
	PrimaryLink     *CustomizationContentRef  `json:"primaryLink,omitempty"`
	BackgroundColor *CustomizationThemedColor `json:"backgroundColor,omitempty"`
	LinkColor       *CustomizationThemedColor `json:"linkColor,omitempty"`
	Links           []CustomizationHeaderItem `json:"links" nullable:"false"`
}

// CustomizationFooterGroup is a group of links of the footer.
type CustomizationFooterGroup struct {
	Title          string                     `json:"title"`
	LocalizedTitle map[string]string          `json:"localizedTitle,omitempty"`
	Links          []CustomizationContentLink `json:"links" nullable:"false"`
}

// CustomizationFooter is the site's footer.
type CustomizationFooter struct {
	Logo      *CustomizationThemedURL    `json:"logo,omitempty"`
	Groups    []CustomizationFooterGroup `json:"groups" nullable:"false"`
	Copyright string                     `json:"copyright,omitempty" maxLength:"512"`
}

// CustomizationAnnouncement is a banner above the site.
type CustomizationAnnouncement struct {
	Enabled          bool                      `json:"enabled"`
	Message          string                    `json:"message" minLength:"2" maxLength:"128"`
	LocalizedMessage map[string]string         `json:"localizedMessage,omitempty"`
	Link             *CustomizationContentLink `json:"link,omitempty"`
	Style            string                    `json:"style" enum:"info,warning,danger,success"`
}

// CustomizationThemes sets the theme mode.
type CustomizationThemes struct {
	Default   string `json:"default" enum:"light,dark,system"`
	Toggeable bool   `json:"toggeable"`
}

// CustomizationToggle is a setting that is on or off.
type CustomizationToggle struct {
	Enabled bool `json:"enabled"`
}

// CustomizationAI is the site's assistant (Galley has none; the settings are kept).
type CustomizationAI struct {
	Mode              string            `json:"mode" enum:"none,search,assistant"`
	Greeting          string            `json:"greeting,omitempty" maxLength:"256"`
	LocalizedGreeting map[string]string `json:"localizedGreeting,omitempty"`
	Suggestions       []string          `json:"suggestions,omitempty" maxItems:"5"`
	Instructions      string            `json:"instructions,omitempty" maxLength:"10000"`
}

// CustomizationPageActions are the actions offered on pages.
type CustomizationPageActions struct {
	Items []string `json:"items" nullable:"false" enum:"assistant,external-ai,markdown,mcp,git,pdf"`
}

// CustomizationExternalLinks says where external links open.
type CustomizationExternalLinks struct {
	Target string `json:"target" enum:"self,blank"`
}

// CustomizationURLSetting is an optional URL.
type CustomizationURLSetting struct {
	URL string `json:"url,omitempty" format:"uri" maxLength:"2048"`
}

// CustomizationSocialAccountDisplay says where an account is shown.
type CustomizationSocialAccountDisplay struct {
	Footer bool `json:"footer"`
	Header bool `json:"header"`
}

// CustomizationSocialAccount is an account of the site's owner.
type CustomizationSocialAccount struct {
	Platform string                            `json:"platform" enum:"twitter,instagram,facebook,linkedin,github,discord,slack,youtube,tiktok,reddit,bluesky,mastodon,threads,medium"`
	Handle   string                            `json:"handle" minLength:"1" maxLength:"128"`
	Display  CustomizationSocialAccountDisplay `json:"display"`
}

// CustomizationInsights are the analytics settings.
type CustomizationInsights struct {
	TrackingCookie bool `json:"trackingCookie"`
}

// SiteIntegrationScript is a script an integration adds to the site;
// Galley has no integrations, so the published view lists none.
type SiteIntegrationScript struct {
	Script                string `json:"script" format:"uri"`
	ContentSecurityPolicy string `json:"contentSecurityPolicy,omitempty"`
	Cookies               bool   `json:"cookies"`
}

package reader

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/galleydocs/galley/shared/content"
	"github.com/galleydocs/galley/shared/model"
	"github.com/galleydocs/galley/shared/sites"
)

// The site's customization beyond colours and logos (docs/reader.md,
// "Customization"): header links, the footer, the body font, corners,
// links' style, external links' target and the interface's language.

// headerLink is an item of the header's links: a link, or a menu of links
// (Links) when it has some.
type headerLink struct {
	Title, Href string
	// Style is link, button-primary or button-secondary.
	Style    string
	External bool
	// NewTab: an external link, opened in a new tab (externalLinks.target).
	NewTab bool
	Links  []headerLink
}

// footerGroup is a titled group of the footer's links.
type footerGroup struct {
	Title string
	Links []headerLink
}

// words are the interface's strings in one language: the reader's own
// labels, visible or read by screen readers.
type words struct {
	Search, SearchLabel, Previous, Next, OnThisPage, Menu, SkipToContent string
	// EditOn is the label of the page's edit link, %s the provider
	// ("Edit on GitHub").
	EditOn string
	// Sections, Pages, Breadcrumb and Pagination name the navigation
	// landmarks.
	Sections, Pages, Breadcrumb, Pagination string
	// Copy and Copied are the code blocks' copy button, before and after
	// a click.
	Copy, Copied string
	// Results labels the results as you type; ResultCount says how many
	// there are (%d); NoResults that none matches.
	Results, ResultCount, NoResults string
	// Announcement names the site's banner; PageActions the page's
	// actions, CopyPage, ViewMarkdown and OpenIn (%s: an assistant) them.
	Announcement, PageActions, CopyPage, ViewMarkdown, OpenIn string
	// Theme names the theme's menu: System, Light and Dark its choices.
	Theme, System, Light, Dark string
	// The page feedback form (docs/insights.md): its question, the three
	// ratings (good, ok, bad), the comment's label, the button and the
	// thank-you note.
	FeedbackQuestion, FeedbackGood, FeedbackOK, FeedbackBad, FeedbackComment, FeedbackSend, FeedbackThanks string
}

// interfaceWords are the interface's strings by language (the space's
// language, else internationalization.locale); another language reads
// English.
var interfaceWords = map[string]words{
	"en": {"Search", "Search this site", "Previous", "Next", "On this page", "Menu", "Skip to content", "Edit on %s",
		"Sections", "Pages", "Breadcrumb", "Previous and next pages", "Copy", "Copied", "Search results", "Results: %d", "No page matches",
		"Announcement", "Page actions", "Copy page", "View as Markdown", "Open in %s", "Theme", "System", "Light", "Dark",
		"Was this page helpful?", "Yes", "Somewhat", "No", "Tell us more (optional)", "Send", "Thank you for your feedback."},
	"fr": {"Rechercher", "Rechercher dans ce site", "Précédent", "Suivant", "Sur cette page", "Menu", "Aller au contenu", "Modifier sur %s",
		"Sections", "Pages", "Fil d’Ariane", "Pages précédente et suivante", "Copier", "Copié", "Résultats de recherche", "Résultats : %d", "Aucune page ne correspond",
		"Annonce", "Actions de la page", "Copier la page", "Voir en Markdown", "Ouvrir dans %s", "Thème", "Système", "Clair", "Sombre",
		"Cette page vous a-t-elle aidé ?", "Oui", "En partie", "Non", "Dites-nous en plus (facultatif)", "Envoyer", "Merci pour votre avis."},
	"de": {"Suchen", "Diese Website durchsuchen", "Zurück", "Weiter", "Auf dieser Seite", "Menü", "Zum Inhalt springen", "Auf %s bearbeiten",
		"Bereiche", "Seiten", "Brotkrumen", "Vorherige und nächste Seite", "Kopieren", "Kopiert", "Suchergebnisse", "Ergebnisse: %d", "Keine Seite gefunden",
		"Ankündigung", "Seitenaktionen", "Seite kopieren", "Als Markdown anzeigen", "In %s öffnen", "Farbschema", "System", "Hell", "Dunkel",
		"War diese Seite hilfreich?", "Ja", "Teilweise", "Nein", "Mehr dazu (optional)", "Senden", "Danke für Ihr Feedback."},
	"es": {"Buscar", "Buscar en este sitio", "Anterior", "Siguiente", "En esta página", "Menú", "Ir al contenido", "Editar en %s",
		"Secciones", "Páginas", "Ruta de navegación", "Páginas anterior y siguiente", "Copiar", "Copiado", "Resultados de búsqueda", "Resultados: %d", "Ninguna página coincide",
		"Anuncio", "Acciones de la página", "Copiar página", "Ver como Markdown", "Abrir en %s", "Tema", "Sistema", "Claro", "Oscuro",
		"¿Te ha sido útil esta página?", "Sí", "En parte", "No", "Cuéntanos más (opcional)", "Enviar", "Gracias por tu opinión."},
	"ja": {"検索", "このサイトを検索", "前へ", "次へ", "このページの内容", "メニュー", "本文へスキップ", "%s で編集",
		"セクション", "ページ", "パンくずリスト", "前後のページ", "コピー", "コピーしました", "検索結果", "結果: %d 件", "一致するページはありません",
		"お知らせ", "ページの操作", "ページをコピー", "Markdown で表示", "%s で開く", "テーマ", "システム", "ライト", "ダーク",
		"このページは役に立ちましたか？", "はい", "まあまあ", "いいえ", "詳しく教えてください（任意）", "送信", "フィードバックをありがとうございました。"},
	"zh": {"搜索", "搜索本站", "上一页", "下一页", "本页内容", "菜单", "跳到正文", "在 %s 上编辑",
		"栏目", "页面", "面包屑导航", "上一页和下一页", "复制", "已复制", "搜索结果", "结果：%d", "没有匹配的页面",
		"公告", "页面操作", "复制页面", "以 Markdown 查看", "在 %s 中打开", "主题", "跟随系统", "浅色", "深色",
		"这个页面有帮助吗？", "有帮助", "一般", "没有帮助", "告诉我们更多（可选）", "发送", "感谢您的反馈。"},
	"ar": {"بحث", "ابحث في هذا الموقع", "السابق", "التالي", "في هذه الصفحة", "القائمة", "انتقل إلى المحتوى", "تعديل على %s",
		"الأقسام", "الصفحات", "مسار التنقل", "الصفحتان السابقة والتالية", "نسخ", "تم النسخ", "نتائج البحث", "النتائج: %d", "لا توجد صفحة مطابقة",
		"إعلان", "إجراءات الصفحة", "نسخ الصفحة", "عرض بتنسيق Markdown", "فتح في %s", "المظهر", "النظام", "فاتح", "داكن",
		"هل كانت هذه الصفحة مفيدة؟", "نعم", "إلى حد ما", "لا", "أخبرنا بالمزيد (اختياري)", "إرسال", "شكرًا على ملاحظاتك."},
	"he": {"חיפוש", "חיפוש באתר", "הקודם", "הבא", "בדף זה", "תפריט", "דלג לתוכן", "עריכה ב-%s",
		"מדורים", "דפים", "פירורי לחם", "הדף הקודם והדף הבא", "העתקה", "הועתק", "תוצאות חיפוש", "תוצאות: %d", "אין דף תואם",
		"הודעה", "פעולות בדף", "העתקת הדף", "הצגה כ-Markdown", "פתיחה ב-%s", "ערכת נושא", "מערכת", "בהיר", "כהה",
		"האם הדף הזה עזר לך?", "כן", "במידה מסוימת", "לא", "ספרו לנו עוד (לא חובה)", "שליחה", "תודה על המשוב."},
}

// wordsFor returns the interface's strings for a language (a region's
// variant, "fr-CA", reads as its language).
func wordsFor(locale string) words {
	if w, ok := interfaceWords[locale]; ok {
		return w
	}
	if w, ok := interfaceWords[baseLanguage(locale)]; ok {
		return w
	}
	return interfaceWords["en"]
}

// baseLanguage is a language tag's language, lower-case ("pt-br": "pt").
func baseLanguage(tag string) string {
	l, _, _ := strings.Cut(strings.ToLower(tag), "-")
	l, _, _ = strings.Cut(l, "_")
	return l
}

// direction is the text direction of a language: "rtl" for Arabic,
// Hebrew, Persian and Urdu, else "ltr".
func direction(lang string) string {
	switch baseLanguage(lang) {
	case "ar", "he", "fa", "ur":
		return "rtl"
	}
	return "ltr"
}

// fontStacks map GitBook's font names (styling.font) to CSS font stacks:
// the font by name, used when the visitor has it installed, then system
// fonts of the same kind. No font file is loaded (no third-party request,
// nothing added to a page's weight).
var fontStacks = map[string]string{
	"ABCFavorit":    `"ABC Favorit",` + sansStack,
	"Inter":         `Inter,` + sansStack,
	"Roboto":        `Roboto,` + sansStack,
	"RobotoSlab":    `"Roboto Slab",Rockwell,"DejaVu Serif",Georgia,serif`,
	"OpenSans":      `"Open Sans",` + sansStack,
	"SourceSansPro": `"Source Sans Pro","Source Sans 3",` + sansStack,
	"Lato":          `Lato,` + sansStack,
	"Ubuntu":        `Ubuntu,` + sansStack,
	"Raleway":       `Raleway,` + sansStack,
	"Merriweather":  `Merriweather,Georgia,Cambria,"DejaVu Serif","Times New Roman",serif`,
	"Overpass":      `Overpass,` + sansStack,
	"NotoSans":      `"Noto Sans",` + sansStack,
	"IBMPlexSerif":  `"IBM Plex Serif",Georgia,Cambria,"DejaVu Serif","Times New Roman",serif`,
	"Poppins":       `Poppins,` + sansStack,
	"FiraSans":      `"Fira Sans",` + sansStack,
}

// sansStack is the system's sans-serif fonts (the default body font).
const sansStack = `system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif`

// styleVars is the CSS the site's styling settings add: the body font,
// the corners and the links' style.
func styleVars(c map[string]any) string {
	var b strings.Builder
	// A custom font (an object with font faces) is served from its URLs:
	// a request to another origin; it falls back to the system's fonts.
	if stack, ok := fontStacks[setting(c, "styling.font")]; ok {
		b.WriteString("body{font-family:" + stack + "}")
	}
	switch setting(c, "styling.corners") {
	case "straight":
		b.WriteString(":root{--radius:0;--small-radius:0;--button-radius:0}")
	case "circular":
		b.WriteString(":root{--radius:16px;--small-radius:10px;--button-radius:999px}")
	}
	if setting(c, "styling.links") == "accent" {
		b.WriteString("article a,.header-links a.hl-link,.site-footer a{color:var(--fg);text-decoration-color:var(--primary)}")
	}
	return b.String()
}

// newTab tells whether external links open in a new tab
// (externalLinks.target).
func (st *site) newTab() bool { return setting(st.custom, "externalLinks.target") == "blank" }

// headerLinks are the header's items the visitor is shown: each item's
// condition holds for their claims, and its target resolves (an item with
// neither a target nor links is left out).
func (s *Service) headerLinks(st *site) []headerLink {
	var out []headerLink
	for _, it := range listOf(st.custom, "header.links") {
		if !sites.ConditionHolds(str(it, "condition"), st.res.Claims) {
			continue
		}
		l := headerLink{Title: st.title(it), Style: str(it, "style")}
		if l.Style != "button-primary" && l.Style != "button-secondary" {
			l.Style = "link"
		}
		l.Href, l.External = s.resolveRef(st, it["to"])
		l.NewTab = l.External && st.newTab()
		for _, sub := range listOf(it, "links") {
			if h, ext := s.resolveRef(st, sub["to"]); h != "" {
				l.Links = append(l.Links, headerLink{Title: st.title(sub), Href: h, External: ext, NewTab: ext && st.newTab(), Style: "link"})
			}
		}
		if l.Title == "" || (l.Href == "" && len(l.Links) == 0) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// title is an item's title in the site's language (localizedTitle), else
// its title.
func (st *site) title(it map[string]any) string {
	if lt, ok := it["localizedTitle"].(map[string]any); ok {
		if t, ok := lt[setting(st.custom, "internationalization.locale")].(string); ok && t != "" {
			return t
		}
	}
	return str(it, "title")
}

// footerGroups are the footer's groups with the links that resolve.
func (s *Service) footerGroups(st *site) []footerGroup {
	var out []footerGroup
	for _, g := range listOf(st.custom, "footer.groups") {
		fg := footerGroup{Title: st.title(g)}
		for _, l := range listOf(g, "links") {
			if h, ext := s.resolveRef(st, l["to"]); h != "" {
				fg.Links = append(fg.Links, headerLink{Title: st.title(l), Href: h, External: ext, NewTab: ext && st.newTab(), Style: "link"})
			}
		}
		if len(fg.Links) > 0 {
			out = append(out, fg)
		}
	}
	return out
}

// resolveRef is a content reference's published URL: a URL (external),
// a page (of the site space read, or of another site space showing its
// space), a site space's root, a file's download link, an anchor. "" when
// it does not resolve for the visitor (a page hidden from them, a space
// the site does not show to them).
func (s *Service) resolveRef(st *site, v any) (string, bool) {
	ref, _ := v.(map[string]any)
	switch str(ref, "kind") {
	case "url":
		u := safeURL(str(ref, "url"))
		if u == "#" || u == "" {
			return "", false
		}
		return u, external(u)
	case "anchor":
		if a := str(ref, "anchor"); a != "" {
			return "#" + url.PathEscape(a), false
		}
	case "page":
		space := str(ref, "space")
		if space == "" || space == st.res.Space.ID {
			if p := st.nav.byID[str(ref, "page")]; p != nil && p.Type != content.TypeGroup {
				return st.pageURL(p), p.Type == content.TypeLink
			}
			return "", false
		}
		ss, ok := st.siteSpaceOf(space)
		if !ok {
			return "", false
		}
		sp := st.res.View.Spaces[space]
		n, err := s.navOf(st, space, sp.Revision)
		if err != nil {
			return "", false
		}
		p := n.byID[str(ref, "page")]
		if p == nil || p.Type != content.TypeDocument {
			return "", false
		}
		base := st.siteSpaceBase(ss.Section, ss.Path, ss.Default)
		if first := n.first(); first != nil && first.ID == p.ID {
			return base + st.query, false
		}
		return base + content.EscapeSegments(p.Path) + st.query, false
	case "space":
		if ss, ok := st.siteSpaceOf(str(ref, "space")); ok {
			return st.siteSpaceBase(ss.Section, ss.Path, ss.Default) + st.query, false
		}
	case "file":
		space := str(ref, "space")
		if space == "" {
			space = st.res.Space.ID
		}
		if _, ok := st.res.View.Spaces[space]; !ok {
			return "", false
		}
		f, err := s.content.File(st.vctx, content.At{SpaceID: space}, str(ref, "file"), false)
		if err == nil {
			return f.DownloadURL, false
		}
	}
	return "", false
}

// external tells whether a URL leads to another site (an absolute http or
// https URL).
func external(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "//")
}

// siteSpaceOf is the first site space (in the site's order) showing a
// space the visitor sees.
func (st *site) siteSpaceOf(spaceID string) (*model.SiteSpace, bool) {
	if _, ok := st.res.View.Spaces[spaceID]; !ok {
		return nil, false
	}
	for _, ss := range st.tree.All() {
		if ss.SpaceID == spaceID {
			return ss, true
		}
	}
	return nil, false
}

// listOf reads a list of objects from a customization setting's path.
func listOf(m map[string]any, path string) []map[string]any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	items, _ := v.([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		if o, ok := it.(map[string]any); ok {
			out = append(out, o)
		}
	}
	return out
}

// safeImage is an image URL of the settings as the page may show it ("" for
// none or an unsafe one).
func safeImage(u string) string {
	if u = safeURL(u); u == "#" {
		return ""
	}
	return u
}

// announcement is the site's banner (customization announcement), when
// enabled: its message (in the locale, localizedMessage), style and link.
type announcement struct {
	Message, Style string
	Link           *headerLink
}

// announcementOf is the site's enabled announcement, nil without one.
func (s *Service) announcementOf(st *site) *announcement {
	a, _ := st.custom["announcement"].(map[string]any)
	if on, _ := a["enabled"].(bool); !on {
		return nil
	}
	msg := str(a, "message")
	if lm, ok := a["localizedMessage"].(map[string]any); ok {
		if m, ok := lm[setting(st.custom, "internationalization.locale")].(string); ok && m != "" {
			msg = m
		}
	}
	if msg == "" {
		return nil
	}
	out := &announcement{Message: msg, Style: str(a, "style")}
	switch out.Style {
	case "info", "warning", "danger", "success":
	default:
		out.Style = "info"
	}
	if l, ok := a["link"].(map[string]any); ok {
		if href, ext := s.resolveRef(st, l["to"]); href != "" {
			title := st.title(l)
			if title == "" {
				title = href
			}
			out.Link = &headerLink{Title: title, Href: href, External: ext, NewTab: ext && st.newTab()}
		}
	}
	return out
}

// assistant is an AI assistant a page can be opened in: its name and the
// URL of a new conversation asking about a page (%s: the question,
// query-escaped).
type assistant struct{ Name, URL string }

// assistants are the assistants of the external-ai page action.
func assistants() []assistant {
	return []assistant{{"ChatGPT", "https://chatgpt.com/?hints=search&q=%s"}, {"Claude", "https://claude.ai/new?q=%s"}}
}

// pageActions are the page's actions the customization enables
// (pageActions.items): markdown (copy the page as Markdown, its .md
// link) and external-ai (plain links opening an assistant with the
// page's Markdown URL). nil when none applies.
func (st *site) pageActions(markdown string, w words) *pageActionsData {
	var pa pageActionsData
	if markdown != "" && pageAction(st.custom, "markdown") {
		pa.Markdown = markdown
	}
	if markdown != "" && pageAction(st.custom, "external-ai") {
		// The assistant reads the page's Markdown at its absolute URL.
		abs := st.origin + markdown
		for _, a := range assistants() {
			q := strings.ReplaceAll(url.QueryEscape("Read "+abs+" so I can ask questions about it."), "+", "%20")
			pa.Assistants = append(pa.Assistants, headerLink{Title: fmt.Sprintf(w.OpenIn, a.Name),
				Href: strings.Replace(a.URL, "%s", q, 1), External: true, NewTab: true})
		}
	}
	if pa.Markdown == "" && len(pa.Assistants) == 0 {
		return nil
	}
	return &pa
}

// pageActionsData is what the page's actions show.
type pageActionsData struct {
	// Markdown is the page's .md URL, shown as a link and copied by the
	// copy button.
	Markdown   string
	Assistants []headerLink
}

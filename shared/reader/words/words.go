// Package words holds the strings of published sites' interface in the
// languages the reader speaks (docs/reader.md, "Interface language"): the
// pages' own labels, the content's labels (hints, API operations), the
// API playground's and the search page's. It imports nothing of the
// reader, so the search function (which links no chroma) shows its
// results page in the same words.
package words

import "strings"

// Words are the interface's strings in one language.
type Words struct {
	Interface
	// Content labels what the content shows beyond its own words.
	Content Content
	// Playground labels the API playground ("Test it").
	Playground Playground
	// SearchPage labels the site's search page (~search).
	SearchPage SearchPage
	// Feedback labels the page feedback form (docs/insights.md).
	Feedback Feedback
}

// Interface are the page's own labels, visible or read by screen
// readers.
type Interface struct {
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
}

// Content labels the blocks' parts that are not the content's words.
type Content struct {
	// Hints' labels, by style.
	Info, Warning, Danger, Success string
	// An operation's tables: the parameters' caption and columns, the
	// fields' column, and the marks of a required or deprecated item.
	Parameters, Name, In, Type, Description, Field, Required, Deprecated string
	// Example labels an example; ExampleMade one made from the schema.
	Example, ExampleMade string
	// RequestBody and Responses head their parts; RequestBodyFields
	// and ResponseFields (%s: the status) caption their fields; MoreFields
	// says some are left out.
	RequestBody, RequestBodyFields, Responses, ResponseFields, MoreFields string
	// Tab is an untitled tab's title (%d: its number); Unavailable a
	// content reference to a page the visitor is not shown; Spec names
	// an operation's spec (%s) when it cannot be read; Anchor a
	// heading's link.
	Tab, Unavailable, Spec, Anchor string
}

// Playground labels the API playground. The %s of its sentences are
// filled in by the reader or its script, as their comments say.
type Playground struct {
	TestIt, Server, ServerURL, Authentication, Credentials, None string
	// Username, Password and Token label credentials (%s: the scheme's
	// name); KeyHeader and KeyQuery an API key (%[1]s the parameter,
	// %[2]s the scheme's name).
	Username, Password, Token, KeyHeader, KeyQuery string
	Parameters, Body, ContentType, Send            string
	// Cookie says a cookie parameter (%s) is not sent; Storage where
	// credentials are kept.
	Cookie, Storage string
	// CORS: no answer could be read (%s: the API's origin); Elsewhere:
	// the URL is not one of the spec's servers (%s: them); Invalid: the
	// browser refused the request (its reason follows); Sending: the
	// request (its method and URL follow).
	CORS, Elsewhere, Invalid, Sending string
	// ResponseHeaders and ResponseBody caption the answer's parts.
	ResponseHeaders, ResponseBody string
	// Why a scheme's credentials are not asked for: an API key in a
	// cookie, client certificates, another kind (%s: its type).
	NoCookieKey, NoTLS, NoKind string
}

// SearchPage labels the search page: its title and heading (Search, the
// interface's), the box's label (%s: the site's title) and the sentence
// saying nothing matches (%s: the query).
type SearchPage struct {
	BoxLabel, NoMatch string
}

// Feedback labels the page feedback form: its question, the three
// ratings (good, ok, bad), the comment's label, the button and the
// thank-you note.
type Feedback struct {
	Question, Good, OK, Bad, Comment, Send, Thanks string
}

var interfaceWords = map[string]Interface{
	"en": {"Search", "Search this site", "Previous", "Next", "On this page", "Menu", "Skip to content", "Edit on %s",
		"Sections", "Pages", "Breadcrumb", "Previous and next pages", "Copy", "Copied", "Search results", "Results: %d", "No page matches",
		"Announcement", "Page actions", "Copy page", "View as Markdown", "Open in %s", "Theme", "System", "Light", "Dark"},
	"fr": {"Rechercher", "Rechercher dans ce site", "Précédent", "Suivant", "Sur cette page", "Menu", "Aller au contenu", "Modifier sur %s",
		"Sections", "Pages", "Fil d’Ariane", "Pages précédente et suivante", "Copier", "Copié", "Résultats de recherche", "Résultats : %d", "Aucune page ne correspond",
		"Annonce", "Actions de la page", "Copier la page", "Voir en Markdown", "Ouvrir dans %s", "Thème", "Système", "Clair", "Sombre"},
	"de": {"Suchen", "Diese Website durchsuchen", "Zurück", "Weiter", "Auf dieser Seite", "Menü", "Zum Inhalt springen", "Auf %s bearbeiten",
		"Bereiche", "Seiten", "Brotkrumen", "Vorherige und nächste Seite", "Kopieren", "Kopiert", "Suchergebnisse", "Ergebnisse: %d", "Keine Seite gefunden",
		"Ankündigung", "Seitenaktionen", "Seite kopieren", "Als Markdown anzeigen", "In %s öffnen", "Farbschema", "System", "Hell", "Dunkel"},
	"es": {"Buscar", "Buscar en este sitio", "Anterior", "Siguiente", "En esta página", "Menú", "Ir al contenido", "Editar en %s",
		"Secciones", "Páginas", "Ruta de navegación", "Páginas anterior y siguiente", "Copiar", "Copiado", "Resultados de búsqueda", "Resultados: %d", "Ninguna página coincide",
		"Anuncio", "Acciones de la página", "Copiar página", "Ver como Markdown", "Abrir en %s", "Tema", "Sistema", "Claro", "Oscuro"},
	"ja": {"検索", "このサイトを検索", "前へ", "次へ", "このページの内容", "メニュー", "本文へスキップ", "%s で編集",
		"セクション", "ページ", "パンくずリスト", "前後のページ", "コピー", "コピーしました", "検索結果", "結果: %d 件", "一致するページはありません",
		"お知らせ", "ページの操作", "ページをコピー", "Markdown で表示", "%s で開く", "テーマ", "システム", "ライト", "ダーク"},
	"zh": {"搜索", "搜索本站", "上一页", "下一页", "本页内容", "菜单", "跳到正文", "在 %s 上编辑",
		"栏目", "页面", "面包屑导航", "上一页和下一页", "复制", "已复制", "搜索结果", "结果：%d", "没有匹配的页面",
		"公告", "页面操作", "复制页面", "以 Markdown 查看", "在 %s 中打开", "主题", "跟随系统", "浅色", "深色"},
	"ar": {"بحث", "ابحث في هذا الموقع", "السابق", "التالي", "في هذه الصفحة", "القائمة", "انتقل إلى المحتوى", "تعديل على %s",
		"الأقسام", "الصفحات", "مسار التنقل", "الصفحتان السابقة والتالية", "نسخ", "تم النسخ", "نتائج البحث", "النتائج: %d", "لا توجد صفحة مطابقة",
		"إعلان", "إجراءات الصفحة", "نسخ الصفحة", "عرض بتنسيق Markdown", "فتح في %s", "المظهر", "النظام", "فاتح", "داكن"},
	"he": {"חיפוש", "חיפוש באתר", "הקודם", "הבא", "בדף זה", "תפריט", "דלג לתוכן", "עריכה ב-%s",
		"מדורים", "דפים", "פירורי לחם", "הדף הקודם והדף הבא", "העתקה", "הועתק", "תוצאות חיפוש", "תוצאות: %d", "אין דף תואם",
		"הודעה", "פעולות בדף", "העתקת הדף", "הצגה כ-Markdown", "פתיחה ב-%s", "ערכת נושא", "מערכת", "בהיר", "כהה"},
}

var contentWords = map[string]Content{
	"en": {"Info", "Warning", "Danger", "Success", "Parameters", "Name", "In", "Type", "Description", "Field", "required", "deprecated",
		"Example", "Example (made from the schema)", "Request body", "Request body fields", "Responses", "Response %s fields", "More fields are in the specification.",
		"Tab %d", "Page not available on this site", "OpenAPI specification: %s", "Link to this section"},
	"fr": {"Info", "Attention", "Danger", "Succès", "Paramètres", "Nom", "Emplacement", "Type", "Description", "Champ", "obligatoire", "obsolète",
		"Exemple", "Exemple (tiré du schéma)", "Corps de la requête", "Champs du corps de la requête", "Réponses", "Champs de la réponse %s", "La spécification a d’autres champs.",
		"Onglet %d", "Page non disponible sur ce site", "Spécification OpenAPI : %s", "Lien vers cette section"},
	"de": {"Info", "Warnung", "Gefahr", "Erfolg", "Parameter", "Name", "Ort", "Typ", "Beschreibung", "Feld", "erforderlich", "veraltet",
		"Beispiel", "Beispiel (aus dem Schema erstellt)", "Anfragekörper", "Felder des Anfragekörpers", "Antworten", "Felder der Antwort %s", "Weitere Felder stehen in der Spezifikation.",
		"Tab %d", "Seite auf dieser Website nicht verfügbar", "OpenAPI-Spezifikation: %s", "Link zu diesem Abschnitt"},
	"es": {"Información", "Advertencia", "Peligro", "Éxito", "Parámetros", "Nombre", "Ubicación", "Tipo", "Descripción", "Campo", "obligatorio", "obsoleto",
		"Ejemplo", "Ejemplo (generado a partir del esquema)", "Cuerpo de la solicitud", "Campos del cuerpo de la solicitud", "Respuestas", "Campos de la respuesta %s", "La especificación tiene más campos.",
		"Pestaña %d", "Página no disponible en este sitio", "Especificación OpenAPI: %s", "Enlace a esta sección"},
	"ja": {"情報", "警告", "危険", "成功", "パラメーター", "名前", "場所", "型", "説明", "フィールド", "必須", "非推奨",
		"例", "例（スキーマから生成）", "リクエストボディ", "リクエストボディのフィールド", "レスポンス", "レスポンス %s のフィールド", "その他のフィールドは仕様を参照してください。",
		"タブ %d", "このサイトでは表示できないページです", "OpenAPI 仕様: %s", "このセクションへのリンク"},
	"zh": {"信息", "警告", "危险", "成功", "参数", "名称", "位置", "类型", "说明", "字段", "必填", "已弃用",
		"示例", "示例（根据架构生成）", "请求体", "请求体字段", "响应", "响应 %s 的字段", "更多字段请参阅规范。",
		"标签页 %d", "此页面在本站不可用", "OpenAPI 规范：%s", "链接到本节"},
	"ar": {"معلومة", "تحذير", "خطر", "نجاح", "المعاملات", "الاسم", "الموضع", "النوع", "الوصف", "الحقل", "مطلوب", "مهمل",
		"مثال", "مثال (مُنشأ من المخطط)", "نص الطلب", "حقول نص الطلب", "الاستجابات", "حقول الاستجابة %s", "المزيد من الحقول في المواصفات.",
		"علامة التبويب %d", "الصفحة غير متاحة على هذا الموقع", "مواصفات OpenAPI: %s", "رابط إلى هذا القسم"},
	"he": {"מידע", "אזהרה", "סכנה", "הצלחה", "פרמטרים", "שם", "מיקום", "סוג", "תיאור", "שדה", "חובה", "הוצא משימוש",
		"דוגמה", "דוגמה (נוצרה מהסכמה)", "גוף הבקשה", "שדות גוף הבקשה", "תגובות", "שדות התגובה %s", "שדות נוספים מופיעים במפרט.",
		"כרטיסייה %d", "הדף אינו זמין באתר זה", "מפרט OpenAPI: %s", "קישור לסעיף זה"},
}

var playgroundWords = map[string]Playground{
	"en": {"Test it", "Server", "Server URL", "Authentication", "Credentials", "None",
		"Username (%s)", "Password (%s)", "Bearer token (%s)", "API key %[1]s in the header (%[2]s)", "API key %[1]s in the query (%[2]s)",
		"Parameters", "Body", "Content type", "Send",
		"The cookie %s cannot be set by a page for another site: it is not sent.",
		"Credentials stay in this browser: kept in this tab's session storage for the API's origin, never sent to this site.",
		"The request failed: the API at %s does not allow cross-origin requests from this site (CORS), or it could not be reached. The snippets below send the same request from elsewhere.",
		"Not sent: this page may send requests only to the servers its API specification names (%s).",
		"The request is not valid: ", "Sending", "Response headers", "Response body",
		"an API key in a cookie cannot be set by a page for another site.", "client certificates are chosen by the browser itself.",
		"this kind of credentials (%s) cannot be sent from here."},
	"fr": {"Essayer", "Serveur", "URL du serveur", "Authentification", "Identifiants", "Aucun",
		"Nom d’utilisateur (%s)", "Mot de passe (%s)", "Jeton Bearer (%s)", "Clé d’API %[1]s dans l’en-tête (%[2]s)", "Clé d’API %[1]s dans la requête (%[2]s)",
		"Paramètres", "Corps", "Type de contenu", "Envoyer",
		"Le cookie %s ne peut pas être défini par une page d’un autre site : il n’est pas envoyé.",
		"Les identifiants restent dans ce navigateur : gardés dans le stockage de session de cet onglet pour l’origine de l’API, jamais envoyés à ce site.",
		"La requête a échoué : l’API de %s n’autorise pas les requêtes de ce site (CORS), ou elle est injoignable. Les extraits ci-dessous envoient la même requête d’ailleurs.",
		"Non envoyée : cette page ne peut envoyer de requêtes qu’aux serveurs nommés par sa spécification d’API (%s).",
		"La requête n’est pas valide : ", "Envoi de", "En-têtes de la réponse", "Corps de la réponse",
		"une clé d’API dans un cookie ne peut pas être définie par une page d’un autre site.", "les certificats client sont choisis par le navigateur lui-même.",
		"ce type d’identifiants (%s) ne peut pas être envoyé d’ici."},
	"de": {"Ausprobieren", "Server", "Server-URL", "Authentifizierung", "Zugangsdaten", "Keine",
		"Benutzername (%s)", "Passwort (%s)", "Bearer-Token (%s)", "API-Schlüssel %[1]s im Header (%[2]s)", "API-Schlüssel %[1]s in der Query (%[2]s)",
		"Parameter", "Body", "Inhaltstyp", "Senden",
		"Das Cookie %s kann nicht von einer Seite einer anderen Website gesetzt werden: Es wird nicht gesendet.",
		"Zugangsdaten bleiben in diesem Browser: im Sitzungsspeicher dieses Tabs für den Ursprung der API, nie an diese Website gesendet.",
		"Die Anfrage ist fehlgeschlagen: Die API unter %s erlaubt keine Anfragen dieser Website (CORS), oder sie ist nicht erreichbar. Die Beispiele unten senden dieselbe Anfrage von anderswo.",
		"Nicht gesendet: Diese Seite darf nur an die Server senden, die ihre API-Spezifikation nennt (%s).",
		"Die Anfrage ist ungültig: ", "Sende", "Antwort-Header", "Antwort-Body",
		"ein API-Schlüssel in einem Cookie kann nicht von einer Seite einer anderen Website gesetzt werden.", "Client-Zertifikate wählt der Browser selbst.",
		"diese Art von Zugangsdaten (%s) kann von hier nicht gesendet werden."},
	"es": {"Pruébalo", "Servidor", "URL del servidor", "Autenticación", "Credenciales", "Ninguna",
		"Usuario (%s)", "Contraseña (%s)", "Token Bearer (%s)", "Clave de API %[1]s en la cabecera (%[2]s)", "Clave de API %[1]s en la consulta (%[2]s)",
		"Parámetros", "Cuerpo", "Tipo de contenido", "Enviar",
		"La cookie %s no puede establecerla una página de otro sitio: no se envía.",
		"Las credenciales se quedan en este navegador: en el almacenamiento de sesión de esta pestaña para el origen de la API, nunca se envían a este sitio.",
		"La solicitud falló: la API de %s no admite solicitudes de otro origen desde este sitio (CORS) o no se pudo alcanzar. Los fragmentos de abajo envían la misma solicitud desde otro lugar.",
		"No enviada: esta página solo puede enviar solicitudes a los servidores que nombra su especificación de API (%s).",
		"La solicitud no es válida: ", "Enviando", "Cabeceras de la respuesta", "Cuerpo de la respuesta",
		"una clave de API en una cookie no puede establecerla una página de otro sitio.", "los certificados de cliente los elige el propio navegador.",
		"este tipo de credenciales (%s) no se puede enviar desde aquí."},
	"ja": {"試してみる", "サーバー", "サーバー URL", "認証", "認証情報", "なし",
		"ユーザー名（%s）", "パスワード（%s）", "Bearer トークン（%s）", "ヘッダーの API キー %[1]s（%[2]s）", "クエリの API キー %[1]s（%[2]s）",
		"パラメーター", "ボディ", "コンテンツタイプ", "送信",
		"Cookie %s は別のサイトのページからは設定できないため、送信されません。",
		"認証情報はこのブラウザーに留まります。API のオリジンごとにこのタブのセッションストレージに保存され、このサイトには送信されません。",
		"リクエストに失敗しました。%s の API がこのサイトからのクロスオリジンリクエストを許可していない（CORS）か、接続できませんでした。下のスニペットで同じリクエストを別の場所から送信できます。",
		"送信されません。このページは API 仕様に記載されたサーバー（%s）にのみリクエストを送信できます。",
		"リクエストが無効です: ", "送信中", "レスポンスヘッダー", "レスポンスボディ",
		"Cookie の API キーは別のサイトのページからは設定できません。", "クライアント証明書はブラウザー自身が選択します。",
		"この種類の認証情報（%s）はここからは送信できません。"},
	"zh": {"试一试", "服务器", "服务器 URL", "身份验证", "凭据", "无",
		"用户名（%s）", "密码（%s）", "Bearer 令牌（%s）", "请求头中的 API 密钥 %[1]s（%[2]s）", "查询参数中的 API 密钥 %[1]s（%[2]s）",
		"参数", "请求体", "内容类型", "发送",
		"Cookie %s 无法由其他站点的页面设置：不会发送。",
		"凭据只保留在此浏览器中：按 API 的源保存在此标签页的会话存储中，绝不发送到本站。",
		"请求失败：%s 上的 API 不允许来自本站的跨源请求（CORS），或无法访问。下面的代码片段可从其他地方发送相同的请求。",
		"未发送：此页面只能向其 API 规范列出的服务器（%s）发送请求。",
		"请求无效：", "正在发送", "响应头", "响应体",
		"Cookie 中的 API 密钥无法由其他站点的页面设置。", "客户端证书由浏览器自行选择。",
		"此类凭据（%s）无法从这里发送。"},
	"ar": {"جرّبه", "الخادم", "عنوان URL للخادم", "المصادقة", "بيانات الاعتماد", "بلا",
		"اسم المستخدم (%s)", "كلمة المرور (%s)", "رمز Bearer (%s)", "مفتاح API %[1]s في الترويسة (%[2]s)", "مفتاح API %[1]s في الاستعلام (%[2]s)",
		"المعاملات", "النص", "نوع المحتوى", "إرسال",
		"لا يمكن لصفحة من موقع آخر تعيين ملف تعريف الارتباط %s: لن يُرسل.",
		"تبقى بيانات الاعتماد في هذا المتصفح: محفوظة في تخزين جلسة هذه العلامة لأصل الـ API، ولا تُرسل أبدًا إلى هذا الموقع.",
		"فشل الطلب: الـ API على %s لا يسمح بالطلبات عبر المصادر من هذا الموقع (CORS)، أو تعذّر الوصول إليه. ترسل المقتطفات أدناه الطلب نفسه من مكان آخر.",
		"لم يُرسل: يمكن لهذه الصفحة إرسال الطلبات فقط إلى الخوادم التي تذكرها مواصفات الـ API الخاصة بها (%s).",
		"الطلب غير صالح: ", "جارٍ إرسال", "ترويسات الاستجابة", "نص الاستجابة",
		"لا يمكن لصفحة من موقع آخر تعيين مفتاح API في ملف تعريف الارتباط.", "يختار المتصفح شهادات العميل بنفسه.",
		"لا يمكن إرسال هذا النوع من بيانات الاعتماد (%s) من هنا."},
	"he": {"נסו את זה", "שרת", "כתובת השרת", "אימות", "פרטי התחברות", "ללא",
		"שם משתמש (%s)", "סיסמה (%s)", "אסימון Bearer (%s)", "מפתח API %[1]s בכותרת (%[2]s)", "מפתח API %[1]s בשאילתה (%[2]s)",
		"פרמטרים", "גוף", "סוג תוכן", "שליחה",
		"דף של אתר אחר אינו יכול להגדיר את העוגייה %s: היא אינה נשלחת.",
		"פרטי ההתחברות נשארים בדפדפן זה: באחסון ההפעלה של כרטיסייה זו לפי מקור ה-API, ולעולם אינם נשלחים לאתר זה.",
		"הבקשה נכשלה: ה-API ב-%s אינו מתיר בקשות ממקור אחר מאתר זה (CORS), או שלא ניתן היה להגיע אליו. קטעי הקוד שלהלן שולחים את אותה בקשה ממקום אחר.",
		"לא נשלח: דף זה רשאי לשלוח בקשות רק לשרתים שמפרט ה-API שלו מציין (%s).",
		"הבקשה אינה תקינה: ", "שולח", "כותרות התשובה", "גוף התשובה",
		"דף של אתר אחר אינו יכול להגדיר מפתח API בעוגייה.", "הדפדפן עצמו בוחר תעודות לקוח.",
		"לא ניתן לשלוח מכאן פרטי התחברות מסוג זה (%s)."},
}

var searchPageWords = map[string]SearchPage{
	"en": {"Search %s", "No page matches “%s”."},
	"fr": {"Rechercher dans %s", "Aucune page ne correspond à « %s »."},
	"de": {"%s durchsuchen", "Keine Seite passt zu „%s“."},
	"es": {"Buscar en %s", "Ninguna página coincide con «%s»."},
	"ja": {"%s を検索", "「%s」に一致するページはありません。"},
	"zh": {"搜索 %s", "没有与“%s”匹配的页面。"},
	"ar": {"ابحث في %s", "لا توجد صفحة تطابق «%s»."},
	"he": {"חיפוש ב-%s", "אין דף התואם ל-„%s”."},
}

var feedbackWords = map[string]Feedback{
	"en": {"Was this page helpful?", "Yes", "Somewhat", "No", "Tell us more (optional)", "Send", "Thank you for your feedback."},
	"fr": {"Cette page vous a-t-elle aidé ?", "Oui", "En partie", "Non", "Dites-nous en plus (facultatif)", "Envoyer", "Merci pour votre avis."},
	"de": {"War diese Seite hilfreich?", "Ja", "Teilweise", "Nein", "Mehr dazu (optional)", "Senden", "Danke für Ihr Feedback."},
	"es": {"¿Te ha sido útil esta página?", "Sí", "En parte", "No", "Cuéntanos más (opcional)", "Enviar", "Gracias por tu opinión."},
	"ja": {"このページは役に立ちましたか？", "はい", "まあまあ", "いいえ", "詳しく教えてください（任意）", "送信", "フィードバックをありがとうございました。"},
	"zh": {"这个页面有帮助吗？", "有帮助", "一般", "没有帮助", "告诉我们更多（可选）", "发送", "感谢您的反馈。"},
	"ar": {"هل كانت هذه الصفحة مفيدة؟", "نعم", "إلى حد ما", "لا", "أخبرنا بالمزيد (اختياري)", "إرسال", "شكرًا على ملاحظاتك."},
	"he": {"האם הדף הזה עזר לך?", "כן", "במידה מסוימת", "לא", "ספרו לנו עוד (לא חובה)", "שליחה", "תודה על המשוב."},
}

// For returns the interface's strings for a language (a region's
// variant, "fr-CA", reads as its language); another language reads
// English.
func For(lang string) Words {
	l := lang
	if _, ok := interfaceWords[l]; !ok {
		l = Base(lang)
	}
	if _, ok := interfaceWords[l]; !ok {
		l = "en"
	}
	return Words{Interface: interfaceWords[l], Content: contentWords[l], Playground: playgroundWords[l], SearchPage: searchPageWords[l], Feedback: feedbackWords[l]}
}

// Base is a language tag's language, lower-case ("pt-br": "pt").
func Base(tag string) string {
	l, _, _ := strings.Cut(strings.ToLower(tag), "-")
	l, _, _ = strings.Cut(l, "_")
	return l
}

// Direction is the text direction of a language: "rtl" for Arabic,
// Hebrew, Persian and Urdu, else "ltr".
func Direction(lang string) string {
	switch Base(lang) {
	case "ar", "he", "fa", "ur":
		return "rtl"
	}
	return "ltr"
}

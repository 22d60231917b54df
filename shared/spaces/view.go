package spaces

import (
	"time"

	"github.com/galleydocs/galley/shared/access"
	"github.com/galleydocs/galley/shared/mergerules"
	"github.com/galleydocs/galley/shared/model"
)

// The API's shape of a space: the spaces family renders it for every family
// that shows a space, over base URLs given to it, so that none of them
// needs the HTTP layer.

// Space is the API shape of a space.
type Space struct {
	Object              string                  `json:"object" enum:"space"`
	ID                  string                  `json:"id"`
	Title               string                  `json:"title" maxLength:"50"`
	Emoji               string                  `json:"emoji" maxLength:"50" doc:"Empty when the space has none"`
	Visibility          string                  `json:"visibility" enum:"public,unlisted,share-link,visitor-auth,in-collection,private"`
	CreatedAt           time.Time               `json:"createdAt"`
	UpdatedAt           time.Time               `json:"updatedAt"`
	DeletedAt           *time.Time              `json:"deletedAt,omitempty"`
	EditMode            string                  `json:"editMode" enum:"live,locked"`
	URLs                URLs                    `json:"urls"`
	Organization        string                  `json:"organization"`
	Parent              string                  `json:"parent,omitempty"`
	Revision            string                  `json:"revision"`
	DefaultLevel        *string                 `json:"defaultLevel" enum:"admin,create,review,edit,comment,read,inherit" nullable:"true"`
	Comments            int                     `json:"comments"`
	ChangeRequests      int                     `json:"changeRequests"`
	ChangeRequestsOpen  int                     `json:"changeRequestsOpen"`
	ChangeRequestsDraft int                     `json:"changeRequestsDraft"`
	Permissions         access.SpacePermissions `json:"permissions"`
	MergeRules          mergerules.SpaceConfig  `json:"mergeRules"`
	Language            string                  `json:"language,omitempty" enum:"en,fr,de,es,it,pt,pt-br,ru,ja,zh,zh-tw,yue,ko,ar,hi,nl,pl,tr,sv,no,da,fi,el,cs,hu,ro,th,vi,id,ms,he,uk,sk,bg,hr,lt,lv,et,sl" doc:"The language of the space's content; absent when unset"`
}

// URLs are a space's links.
type URLs struct {
	Location  string `json:"location" format:"uri"`
	App       string `json:"app" format:"uri"`
	Published string `json:"published,omitempty" format:"uri"`
	Public    string `json:"public,omitempty" format:"uri"`
	Icon      string `json:"icon,omitempty" format:"uri"`
}

// ViewSpace renders a space for a caller of role, with links under
// apiBase and appBase.
// View renders a space for a caller whose effective role on it is role.
func ViewSpace(apiBase, appBase string, s model.Space, role model.Role) Space {
	v := Space{Object: "space", ID: s.ID, Title: s.Title, Emoji: s.Emoji, Visibility: s.Visibility,
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, DeletedAt: s.DeletedAt, EditMode: s.EditMode,
		URLs:         URLs{Location: apiBase + "/v1/spaces/" + s.ID, App: appBase + "/s/" + s.ID, Icon: s.Icon},
		Organization: s.OrgID, Parent: s.Parent, Revision: s.Revision,
		Comments: s.Comments, ChangeRequests: s.ChangeRequests, ChangeRequestsOpen: s.ChangeRequestsOpen,
		ChangeRequestsDraft: s.ChangeRequestsDraft, Permissions: access.ForSpace(role), MergeRules: mergerules.SpaceView(s.MergeRules),
		Language: s.Language}
	if s.DefaultLevel != "" {
		level := s.DefaultLevel
		v.DefaultLevel = &level
	}
	return v
}

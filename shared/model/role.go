package model

// Role is a member's role in an organization, or a level of access to
// content. The empty Role is a guest: a member with no access of their own.
type Role string

// Roles, from the most to the least powerful.
const (
	RoleAdmin   Role = "admin"
	RoleCreate  Role = "create"
	RoleReview  Role = "review"
	RoleEdit    Role = "edit"
	RoleComment Role = "comment"
	RoleRead    Role = "read"
	RoleGuest   Role = ""
)

// Roles lists the roles of members, most powerful first.
func Roles() []Role {
	return []Role{RoleAdmin, RoleCreate, RoleReview, RoleEdit, RoleComment, RoleRead}
}

// rank orders roles: admin > create > review > edit > comment > read > guest.
func (r Role) rank() int {
	switch r {
	case RoleAdmin:
		return 6
	case RoleCreate:
		return 5
	case RoleReview:
		return 4
	case RoleEdit:
		return 3
	case RoleComment:
		return 2
	case RoleRead:
		return 1
	}
	return 0
}

// AtLeast reports whether r grants everything min grants.
func (r Role) AtLeast(min Role) bool { return r.rank() >= min.rank() }

// Valid reports whether r is a known role or guest.
func (r Role) Valid() bool { return r == RoleGuest || r.rank() > 0 }

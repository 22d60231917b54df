package reader

// The theme toggle (customization themes.toggeable; docs/reader.md,
// "Theme toggle"): the visitor chooses light, dark or the system's theme,
// kept in the browser's localStorage (no cookie). The page's dark rules
// are a style element of their own, <style id="theme-dark"
// media="(prefers-color-scheme: dark)">, followed in the head by a script
// that sets its media to "all" (dark chosen) or "not all" (light chosen)
// from the visitor's choice, else the site's default: scripts in the
// head run before the first paint, so a chosen theme shows from the
// start, and the dark rules are sent once.

// themeKey is where the visitor's choice is kept (localStorage).
const themeKey = "galley-theme"

// themeScript applies the visitor's choice, else the site's default (its
// element's data-default), and names it on <html data-theme> (the
// menu's and the diagrams' scripts read it). It must hold no "{{": it is
// part of the page's template.
const themeScript = `(function(){var t;try{t=localStorage.getItem("` + themeKey + `")}catch(e){}if(t!=="light"&&t!=="dark"&&t!=="system")t=document.currentScript.getAttribute("data-default");` +
	`if(t==="light"||t==="dark"){document.documentElement.setAttribute("data-theme",t);document.getElementById("theme-dark").media=t==="dark"?"all":"not all"}})()`

// themeMenuScript is the part of the page's script (copyScript) that
// shows the theme's menu and applies a new choice.
const themeMenuScript = `var ts=document.querySelector("select.theme-choice"),root=document.documentElement,dk=document.getElementById("theme-dark");` +
	`if(ts&&dk){var v=root.getAttribute("data-theme")||"system";try{v=localStorage.getItem("` + themeKey + `")||v}catch(e){}ts.value=v;ts.hidden=false;` +
	`ts.onchange=function(){try{localStorage.setItem("` + themeKey + `",ts.value)}catch(e){}if(ts.value==="system"){root.removeAttribute("data-theme");dk.media="(prefers-color-scheme: dark)"}` +
	`else{root.setAttribute("data-theme",ts.value);dk.media=ts.value==="dark"?"all":"not all"}}}`

// themeChoiceCSS styles the theme's menu.
const themeChoiceCSS = `select.theme-choice{font:inherit;font-size:.9rem;padding:3px 6px;border:1px solid var(--muted);border-radius:var(--radius);background:var(--bg);color:var(--fg)}`

# The embedded player and the copy-embed control.

embed-open = Open in Lockstep
embed-open-new-tab = (opens a new tab)
embed-url-warnings-title = This embed's link could not be followed exactly
embed-copy = Copy embed code
embed-paste-before = Paste both lines into your page: the{" "}
embed-paste-after = {" "}fits the widget's height (once per page is enough).
embed-full = every panel (view=full)
embed-copied = Copied to the clipboard
embed-moved = The player moved since: copy again for this moment
embed-selected = Selected: press Ctrl+C (⌘C on a Mac) to copy

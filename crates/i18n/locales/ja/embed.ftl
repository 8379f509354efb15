# 埋め込みプレーヤーと埋め込みコードのコピー。

embed-open = Lockstep で開く
embed-open-new-tab = (新しいタブで開きます)
embed-url-warnings-title = この埋め込みのリンクを正確にはたどれませんでした
embed-copy = 埋め込みコードをコピー
embed-paste-before = 2 行ともページに貼り付けてください。{" "}
embed-paste-after = {" "}がウィジェットの高さを合わせます (1 ページに 1 回で十分です)。
embed-full = すべてのパネル (view=full)
embed-copied = クリップボードにコピーしました
embed-moved = プレーヤーが進みました: この時点のコードをもう一度コピーしてください
embed-selected = 選択しました: Ctrl+C (Mac では ⌘C) でコピーしてください

# Jednowierszowe zdarzenia przebiegu, tak jak pokazuje je dziennik zdarzeń. Sesje,
# tabele, klucze, zasoby, tryby blokad, SQL i komunikaty błędów przychodzą tak, jak
# nazywa je przebieg.

trace-setup = skrypt przygotowawczy wykonał { $statements ->
    [one] { $statements } instrukcję
    [few] { $statements } instrukcje
   *[other] { $statements } instrukcji
} i zostawił { $tables ->
    [one] { $tables } tabelę
    [few] { $tables } tabele
   *[other] { $tables } tabel
}
trace-connects = { $session } łączy się
trace-script-done = { $session } kończy swój skrypt
trace-runs = { $session } wykonuje wiersz { $line }: { $text }
trace-runs-in-proc = { $session } wykonuje { $proc }, wiersz { $line }: { $text }
trace-statement-done = { $session } kończy { $label } w { $ms }{ $flush }{ $details }
trace-statement-details = , { $list }
trace-statement-rows = { $rows ->
    [one] { $rows } wiersz
    [few] { $rows } wiersze
   *[other] { $rows } wierszy
}
trace-statement-reads = { $reads_name }: { $reads }
trace-statement-flush = {" "}(z tego { $ms } czekania na powolny zapis dziennika)
trace-begins = { $session } rozpoczyna transakcję
trace-begins-autocommit = { $session } rozpoczyna transakcję autocommit
trace-commits = { $session } zatwierdza i zwalnia { $locks ->
    [one] { $locks } blokadę
    [few] { $locks } blokady
   *[other] { $locks } blokad
}{ $intent }
trace-rolls-back = { $session } wycofuje ({ $why }) i zwalnia { $locks ->
    [one] { $locks } blokadę
    [few] { $locks } blokady
   *[other] { $locks } blokad
}{ $intent }
trace-intent-tables = { $count ->
    [one] , w tym 1 na tabeli
   *[other] , w tym { $count } na tabelach
}
trace-intent-pages = { $count ->
    [one] , w tym 1 na tabeli lub stronie
   *[other] , w tym { $count } na tabelach lub stronach
}
trace-why-trigger = ROLLBACK w wyzwalaczu
trace-why-session-ended = sesja skończyła się z otwartą transakcją
trace-why-error = błąd { $code }
trace-why-unnumbered = błąd bez numeru
trace-gets = { $session } dostaje { $mode } na { $resource }
trace-gets-after = { $session } dostaje { $mode } na { $resource } po { $ms } czekania
trace-waits = { $session } czeka na { $mode } na { $resource }: { $holders }
trace-asks-nowait = { $session } prosi o { $mode } na { $resource } z NOWAIT: { $holders }
trace-holder = { $holder } trzyma { $mode }
trace-holders-queued = wcześniejsze żądania czekają w kolejce
trace-queued-ahead = { $session } czeka wcześniej w kolejce na { $mode }
trace-refused = { $session } dostaje odmowę { $mode } na { $resource }: { $holders }; { $function } zwraca false
trace-releases-commit = { $session } zwalnia { $mode } na { $resource } przy zatwierdzeniu
trace-releases-rollback = { $session } zwalnia { $mode } na { $resource } przy wycofaniu
trace-releases-statement = { $session } zwalnia { $mode } na { $resource } na końcu instrukcji
trace-releases-request = { $session } zwalnia { $mode } na { $resource } na żądanie
trace-skips = { $session } pomija { $table } ({ $key }) dzięki { $clause }: { $holder } trzyma { $held }, { $session } potrzebuje { $wanted }
trace-label-assignment = przypisanie
trace-reads = { $session } czyta { $rows ->
    [one] { $rows } wiersz
    [few] { $rows } wiersze
   *[other] { $rows } wierszy
} z tabeli { $table } przez { $access } ({ $reads_name }: { $reads })
trace-access-clustered-seek = wyszukiwanie w indeksie klastrowanym
trace-access-clustered-scan = skanowanie indeksu klastrowanego
trace-access-index-seek = wyszukiwanie w indeksie { $index }
trace-access-primary-index = indeks główny (skrót wiersza)
trace-access-constant = bez tabeli
trace-access-seq-scan = skan sekwencyjny
trace-access-all-rows-scan = skanowanie wszystkich wierszy
trace-access-index-scan = skanowanie indeksu { $index }
trace-inserts = { $session } wstawia { $table } ({ $key })
trace-updates = { $session } zmienia { $table } ({ $key })
trace-updates-values = { $session } zmienia { $table } ({ $key }): { $changes }
trace-change = { $column } { $old } -> { $new }
trace-deletes = { $session } usuwa { $table } ({ $key })
trace-fk-exists = { $session } sprawdza klucz obcy { $constraint }: { $reads } ({ $key }) musi istnieć
trace-fk-action = { $session } sprawdza klucz obcy { $constraint } (ON { $on } { $action }): wiersze { $reads } odwołujące się do { $table } ({ $key }) { $effect }
trace-fk-deleted = też są usuwane
trace-fk-set-null = dostają NULL
trace-fk-set-default = dostają wartość domyślną
trace-result = { $session } dostaje { $rows ->
    [one] { $rows } wiersz
    [few] { $rows } wiersze
   *[other] { $rows } wierszy
} [{ $columns }]
trace-result-first = { $session } dostaje { $rows ->
    [one] { $rows } wiersz
    [few] { $rows } wiersze
   *[other] { $rows } wierszy
} [{ $columns }]: { $first }
trace-sleeps = { $session } śpi { $ms } ({ $call })
trace-error = { $session } dostaje błąd { $code }: { $message }
trace-error-caught = { $session } dostaje błąd { $code }, przechwycony: { $message }
trace-error-severity = { $number } (ważność { $severity }, stan { $state })
trace-no-wait = { $session } nie czeka na { $resource } (NOWAIT)
trace-stops-waiting = { $session } przestaje czekać na { $resource } po { $ms } ({ $setting })
trace-deadlock = zakleszczenie: { $cycle }; ofiarą zostaje { $victim }
trace-deadlock-edge = { $from } czeka na { $to }
trace-prints = { $session } wypisuje: { $text }
trace-calls = { $session } wywołuje { $procedure }
trace-leaves-on-error = { $session } opuszcza { $procedure } z błędem { $error }
trace-returns-code = { $session } wraca z { $procedure } z kodem { $code }
trace-returns = { $session } wraca z { $procedure }
trace-consume-delayed = { $session } zastaje { $table } pustą: jej konsumpcja czeka w stanie opóźnionym, bez blokady na { $table }, aż przyjdzie wiersz
trace-consume-resumed = konsumpcja sesji { $session } na { $table } rusza po { $ms } w stanie opóźnionym
trace-fifo-rebuilt = { $session } zmieniła tabelę kolejkową { $table }: jej pamięć podręczna FIFO jest odbudowywana pełnym skanem tabeli (odczyty logiczne: { $reads })
trace-external-call = { $session } wywołuje system zewnętrzny: zapisuje wywołanie ({ $key })
trace-applock = sp_getapplock sesji { $session } dla { $mode } na { $resource } zwraca { $code }: { $meaning }
trace-applock-granted = przyznana od razu
trace-applock-granted-after-wait = przyznana po czekaniu
trace-applock-timed-out = limit czasu minął
trace-applock-timed-out-held = limit czasu minął: trzyma ją { $holders }
trace-applock-victim = wybrana jako ofiara zakleszczenia
trace-applock-error = błąd parametru albo wywołania
trace-escalated = { $session } eskaluje blokady do { $mode } na { $resource }: zwalnia tam { $released } blokad(y) wierszy i stron
trace-list-sep = ,{" "}

# A key range in a lock resource (KEY send (end of index)).
key-end-of-index = koniec indeksu
key-range-below = zakres poniżej { $key }

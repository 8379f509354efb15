# Witryna: nagłówek, lista lekcji, strony poza lekcją.

tagline = Zobacz, jak zachowują się kolejki zadań i blokady w bazie danych, krok po kroku.
language = Język
skip-to-content = Przejdź do treści
# The switch's accessible name starts with its visible word, then says what a press does.
theme-label-light = Jasny motyw: przełącz na ciemny motyw
theme-label-dark = Ciemny motyw: przełącz na jasny motyw
theme-to-light = Przełącz na jasny motyw
theme-to-dark = Przełącz na ciemny motyw
theme-dark = Ciemny
theme-light = Jasny
facilitator-link = Dla prowadzących warsztaty: wszystkie ćwiczenia z celami i wskazówkami, do wydruku

lessons-heading = Lekcje
lessons-none = Nie ma jeszcze lekcji
lesson-exercise-chip = Ćwiczenie
lesson-start-here = Zacznij tutaj
lesson-untranslated = Jeszcze nie przetłumaczone, pokazane po angielsku.
lesson-covers = Scenariusze
lesson-covers-label = Pokryte scenariusze: { $list }
lesson-covers-legend = Każda lekcja obejmuje scenariusze z trzech artykułów, z których pochodzi, oznaczone identyfikatorami: Q – kolejka zadań w SQL Server z READPAST; T – tabele kolejkowe Teradata i SELECT AND CONSUME; I – idempotentne wysyłki z sp_getapplock i filtrowanym indeksem unikalnym. Lekcje PostgreSQL odgrywają te same scenariusze w PostgreSQL.
lesson-toggles = Przełączniki: { $list }
card-solved = ✓ Rozwiązane
card-goals = Cele spełnione przy ostatnim sprawdzeniu: { $met } z { $judged }
card-started = Rozpoczęte: twój SQL jest zapisany

not-found-title = Nie ma takiej strony
not-found-before = Pod adresem{" "}
not-found-after = {" "}nic nie ma.
no-lesson-title = Nie ma takiej lekcji
no-lesson-before = Nie ma lekcji{" "}
no-lesson-after = . Dostępne lekcje:
embed-no-lesson-after = . Sprawdź adres w ramce iframe na stronie.
embed-no-id = Ten widżet nie wskazuje lekcji: jego adres powinien kończyć się na #/embed/ i identyfikator lekcji, np. #/embed/queue-wait-or-skip. Sprawdź adres w ramce iframe na stronie.
embed-did-you-mean = Czy chodziło o
embed-all-lessons = Wszystkie lekcje (otwiera nową kartę)
no-exercise-title = Nie ma takiego ćwiczenia
no-exercise-before = Nie ma ćwiczenia{" "}
no-exercise-after = . Dostępne ćwiczenia:
back-to-lessons = Wróć do lekcji
simulating = Symulacja…
working = Praca w toku…

rows = { $count ->
    [one] { $count } wiersz
    [few] { $count } wiersze
   *[many] { $count } wierszy
}

# Strona prowadzącego.
facilitator-title = Ćwiczenia warsztatowe
facilitator-intro = Ćwiczenia: { $count }. Każde jest sprawdzane na kilku ziarnach: poprawka, która działa tylko wtedy, gdy wyścig akurat pójdzie dobrze, się nie liczy.
facilitator-progress = Postępy uczestników zostają w ich własnych przeglądarkach.
facilitator-print = Drukuj tę stronę
facilitator-reset = Wyczyść postępy wszystkich ćwiczeń w tej przeglądarce
facilitator-reset-title = Zapomnij rozwiązane ćwiczenia i zapisany SQL w tej przeglądarce (na wspólny komputer warsztatowy)
facilitator-reset-confirm = Usunąć z tej przeglądarki zapisane postępy { $count ->
    [one] { $count } ćwiczenia
   *[other] { $count } ćwiczeń
}: SQL, pokazane wskazówki i oznaczenia rozwiązania?
facilitator-reset-yes = Usuń
facilitator-reset-no = Zostaw
facilitator-cleared = Wyczyszczono zapisane postępy: { $count ->
    [one] { $count } ćwiczenie
    [few] { $count } ćwiczenia
   *[many] { $count } ćwiczeń
}.
facilitator-covers = scenariusze { $list }
facilitator-seeds = sprawdzane na ziarnach { $seeds }
facilitator-goal = Cel
facilitator-checks = Sprawdzenia ({ $count })
facilitator-hints = Wskazówki w kolejności, w jakiej widzą je uczestnicy ({ $count })
facilitator-edits = Uczestnicy edytują:
facilitator-open = Otwórz ćwiczenie

# Panel błędu po błędzie wewnętrznym.
panic-title = Lockstep się zatrzymał
panic-explain = Błąd wewnętrzny zatrzymał stronę i nie może ona działać dalej. Przeładuj, by zacząć od nowa; jeśli to się powtórzy, zgłoś komunikat poniżej.
panic-reload = Przeładuj Lockstep

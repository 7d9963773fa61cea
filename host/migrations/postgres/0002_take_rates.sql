-- Both rate limits of a request in one round trip. Counts the request in the first window and
-- the second unless one of them is at its limit; then neither keeps it. Returns the counts after
-- it, or which window refused it (1 or 2) with its count.
CREATE FUNCTION quire_take_rates(
    s1 text, k1 text, w1 bigint, l1 bigint,
    s2 text, k2 text, w2 bigint, l2 bigint,
    OUT used1 bigint, OUT used2 bigint, OUT refused_by integer)
LANGUAGE plpgsql AS $$
BEGIN
    refused_by := 0;
    IF l1 <= 0 THEN
        used1 := 0; refused_by := 1; RETURN;
    END IF;
    INSERT INTO rate_counts AS r (scope, key, window_number, count) VALUES (s1, k1, w1, 1)
    ON CONFLICT (scope, key) DO UPDATE SET
        count = CASE WHEN r.window_number = EXCLUDED.window_number THEN r.count + 1 ELSE 1 END,
        window_number = EXCLUDED.window_number
    WHERE r.window_number <> EXCLUDED.window_number OR r.count < l1
    RETURNING count INTO used1;
    IF used1 IS NULL THEN
        used1 := l1; refused_by := 1; RETURN;
    END IF;
    IF l2 > 0 THEN
        INSERT INTO rate_counts AS r (scope, key, window_number, count) VALUES (s2, k2, w2, 1)
        ON CONFLICT (scope, key) DO UPDATE SET
            count = CASE WHEN r.window_number = EXCLUDED.window_number THEN r.count + 1 ELSE 1 END,
            window_number = EXCLUDED.window_number
        WHERE r.window_number <> EXCLUDED.window_number OR r.count < l2
        RETURNING count INTO used2;
    END IF;
    IF used2 IS NULL THEN
        used2 := GREATEST(l2, 0); refused_by := 2;
        UPDATE rate_counts SET count = count - 1
        WHERE scope = s1 AND key = k1 AND window_number = w1 AND count > 0;
    END IF;
END $$;

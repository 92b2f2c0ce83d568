CREATE OR REPLACE VIEW account_totals AS
SELECT a.id,
       a.balance,
       coalesce((SELECT sum(t.amount) FROM transfer t WHERE t.to_id = a.id), 0)
         - coalesce((SELECT sum(t.amount) FROM transfer t WHERE t.from_id = a.id), 0) AS net_transfers
FROM account a;
